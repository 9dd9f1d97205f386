import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as audit from "@/app/api/audit/route";
import * as role from "@/app/api/users/[username]/role/route";
import * as signOut from "@/app/api/users/[username]/sign-out/route";
import * as unlock from "@/app/api/users/[username]/unlock/route";
import * as users from "@/app/api/users/route";
import type { UserActionAnswer, UsersView } from "@/lib/shared/api/users";
import { type Harness, PASSWORDS, startHarness } from "@/lib/testing/console-harness";

/** The users screen's route handlers, in-process on a real store. */

let h: Harness;
let manager: string;
beforeAll(async () => {
  h = await startHarness({ upstream: false });
  manager = (await h.signIn("manager", PASSWORDS.manager)).cookie;
});
afterAll(async () => {
  await h?.close();
});

const view = async (cookie = manager) =>
  (await (await h.call(users, "GET", "/api/users", { cookie })).json()) as UsersView;
const act = (module: typeof unlock, username: string, body?: unknown, cookie = manager) =>
  h.call(module, "POST", `/api/users/${username}/x`, { cookie, params: { username }, body });

describe("the users screen", () => {
  it("shows a locked account and its failures; a manager unlocks it, audited", async () => {
    for (let i = 0; i < 5; i++)
      expect((await h.signIn("staff", `wrong-${i}`)).status).toBeGreaterThanOrEqual(401);
    expect((await h.signIn("staff", PASSWORDS.staff)).status).toBe(423);
    await h.signIn("ghost-user", "whatever");
    const before = await view();
    const staff = before.users.find((u) => u.username === "staff")!;
    expect(staff.locked_until).not.toBeNull();
    expect(staff.failures_24h).toBe(6);
    expect(before.failures.filter((f) => f.username === "staff").map((f) => f.outcome)).toContain("locked");
    expect(before.failures.some((f) => f.username === "ghost-user")).toBe(false);
    expect(before.unknown_failures_24h).toBe(1);

    const res = await act(unlock, "staff");
    expect(res.status).toBe(200);
    expect(((await res.json()) as UserActionAnswer).user.locked_until).toBeNull();
    expect((await h.signIn("staff", PASSWORDS.staff)).status).toBe(200);
    const log = (await (await h.call(audit, "GET", "/api/audit", { cookie: manager })).json()) as {
      data: { action: string; target: string; username: string }[];
    };
    expect(log.data[0]).toMatchObject({ action: "users.unlock", target: "staff", username: "manager" });
  });

  it("signing a user out everywhere and changing a role end their sessions at once", async () => {
    const one = (await h.signIn("supervisor", PASSWORDS.supervisor)).cookie;
    const two = (await h.signIn("supervisor", PASSWORDS.supervisor)).cookie;
    expect((await view()).users.find((u) => u.username === "supervisor")!.sessions).toBe(2);
    const out = (await (await act(signOut, "supervisor")).json()) as UserActionAnswer;
    expect(out).toMatchObject({ ended_sessions: 2, user: { sessions: 0 } });
    for (const cookie of [one, two])
      expect((await h.call(audit, "GET", "/api/audit", { cookie })).status).toBe(401);

    const three = (await h.signIn("supervisor", PASSWORDS.supervisor)).cookie;
    const changed = (await (await act(role, "supervisor", { role: "manager" })).json()) as UserActionAnswer;
    expect(changed).toMatchObject({
      ended_sessions: 1,
      changed: true,
      user: { role: "manager", sessions: 0 },
    });
    expect((await h.call(audit, "GET", "/api/audit", { cookie: three })).status).toBe(401);
  });

  it("a role change that changes nothing ends no session, and says so", async () => {
    const cookies = [];
    for (let i = 0; i < 3; i++) cookies.push((await h.signIn("staff", PASSWORDS.staff)).cookie);
    const live = (await view()).users.find((u) => u.username === "staff")!.sessions;
    expect(live).toBeGreaterThanOrEqual(3);
    const res = await act(role, "staff", { role: "staff" });
    expect(res.status).toBe(200);
    const same = (await res.json()) as UserActionAnswer;
    expect(same).toMatchObject({
      changed: false,
      ended_sessions: 0,
      user: { role: "staff", sessions: live },
    });
    for (const cookie of cookies)
      expect((await h.call(audit, "GET", "/api/audit", { cookie })).status).toBe(403);
    const log = (await (await h.call(audit, "GET", "/api/audit", { cookie: manager })).json()) as {
      data: { action: string; target: string; outcome: string; detail: Record<string, unknown> }[];
    };
    expect(log.data[0]).toMatchObject({
      action: "users.role",
      target: "staff",
      outcome: "unchanged",
      detail: { from: "staff", to: "staff", ended_sessions: 0 },
    });
    // Two managers changing the same role at once: one of them changes it, the other changes nothing.
    const both = await Promise.all([
      act(role, "staff", { role: "supervisor" }),
      act(role, "staff", { role: "supervisor" }),
    ]);
    const answers = (await Promise.all(both.map((r) => r.json()))) as UserActionAnswer[];
    expect(answers.map((a) => a.changed).sort()).toEqual([false, true]);
    expect(answers.reduce((n, a) => n + a.ended_sessions, 0)).toBe(live);
    await act(role, "staff", { role: "staff" });
  });

  it("is for managers only; a manager's own role is changed by another manager", async () => {
    const staff = (await h.signIn("staff", PASSWORDS.staff)).cookie;
    expect((await h.call(users, "GET", "/api/users", { cookie: staff })).status).toBe(403);
    expect((await act(unlock, "manager", undefined, staff)).status).toBe(403);
    const own = await act(role, "manager", { role: "staff" });
    expect(own.status).toBe(403);
    expect((await act(role, "staff", { role: "admin" })).status).toBe(400);
    expect((await act(unlock, "nobody-at-all")).status).toBe(404);
    expect((await act(unlock, "../etc")).status).toBe(400);
  });
});
