import { describe, expect, it } from "vitest";
import { can, homeFor, permissions, roles, screens } from "./permissions";

describe("permission table", () => {
  it("gives staff the gate tools and nothing that moves money", () => {
    expect(can("staff", "tickets.checkin")).toBe(true);
    expect(can("staff", "topups.create")).toBe(false);
    expect(can("staff", "withdrawals.create")).toBe(false);
    expect(can("staff", "tickets.cancel")).toBe(false);
    expect(can("staff", "overview.view")).toBe(false);
  });

  it("lets only supervisors and managers check a ticket in on a day it is not valid for", () => {
    expect(can("staff", "tickets.checkin_override")).toBe(false);
    expect(can("supervisor", "tickets.checkin_override")).toBe(true);
    expect(can("manager", "tickets.checkin_override")).toBe(true);
  });

  it("lets supervisors run the desks and sign nights off, and only managers cancel and import", () => {
    expect(can("supervisor", "topups.create")).toBe(true);
    expect(can("supervisor", "reconciliation.signoff")).toBe(true);
    expect(can("supervisor", "tickets.cancel")).toBe(false);
    expect(can("manager", "tickets.cancel")).toBe(true);
    expect(can("manager", "tickets.import")).toBe(true);
    expect(can("manager", "audit.view")).toBe(true);
  });

  it("only names known roles (and the wall), and every role has a home screen it may open", () => {
    for (const allowed of Object.values(permissions))
      for (const role of allowed) expect([...roles, "wall"]).toContain(role);
    for (const role of roles) {
      const home = screens.find((s) => s.href === homeFor(role));
      expect(home && can(role, home.permission)).toBe(true);
    }
    expect(homeFor("staff")).toBe("/search");
    expect(homeFor("manager")).toBe("/");
    expect(homeFor("supervisor")).toBe("/");
  });
});

describe("the wall", () => {
  it("reads the overview's figures and the wall, and may do nothing else", () => {
    const granted = (Object.keys(permissions) as (keyof typeof permissions)[]).filter((p) => can("wall", p));
    expect(granted.sort()).toEqual(["overview.view", "wall.view"]);
    expect(homeFor("wall")).toBe("/wall");
  });
});
