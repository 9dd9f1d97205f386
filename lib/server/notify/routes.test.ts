import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as deliveries from "@/app/api/alerts/[id]/deliveries/route";
import * as contact from "@/app/api/notify/contacts/[id]/route";
import * as contacts from "@/app/api/notify/contacts/route";
import * as settings from "@/app/api/notify/route";
import * as routes from "@/app/api/notify/routes/route";
import { type Harness, PASSWORDS, startHarness } from "@/lib/testing/console-harness";
import { insertAlert } from "../store/attention";

/** The notifications' endpoints through their route handlers: who may, what is refused, what never leaks. */

let h: Harness;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness({ upstream: false });
  for (const role of ["manager", "supervisor", "staff"] as const)
    cookies[role] = (await h.signIn(role, PASSWORDS[role])).cookie;
});
afterAll(() => h.close());

describe("contact points and routes over HTTP", () => {
  it("only a manager may see or change them", async () => {
    for (const role of ["supervisor", "staff"] as const) {
      expect((await h.call(settings, "GET", "/api/notify", { cookie: cookies[role] })).status).toBe(403);
      const add = await h.call(contacts, "POST", "/api/notify/contacts", {
        cookie: cookies[role],
        body: { name: "x", channel: "email", target: "x@example.test" },
      });
      expect(add.status).toBe(403);
    }
    expect((await h.call(settings, "GET", "/api/notify", {})).status).toBe(401);
  });

  it("a webhook's URL goes in and never comes out; a bad address or a taken name is a 400", async () => {
    const url = "https://hooks.example.test/services/T1/B2/very-secret-token";
    const made = await h.call(contacts, "POST", "/api/notify/contacts", {
      cookie: cookies.manager,
      body: { name: "Chat", channel: "slack", target: url, locale: "es" },
    });
    expect(made.status).toBe(201);
    const body = await made.text();
    expect(body).not.toContain("very-secret-token");
    expect(JSON.parse(body)).toMatchObject({ name: "Chat", shown_target: "https://hooks.example.test/…" });
    const listed = await (await h.call(settings, "GET", "/api/notify", { cookie: cookies.manager })).text();
    expect(listed).not.toContain("very-secret-token");
    expect(listed).not.toContain("secret_box");

    const taken = await h.call(contacts, "POST", "/api/notify/contacts", {
      cookie: cookies.manager,
      body: { name: "Chat", channel: "email", target: "a@example.test" },
    });
    expect(taken.status).toBe(400);
    const bad = await h.call(contacts, "POST", "/api/notify/contacts", {
      cookie: cookies.manager,
      body: { name: "Mail", channel: "email", target: "not an address" },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain("e-mail address");
    const ftp = await h.call(contacts, "POST", "/api/notify/contacts", {
      cookie: cookies.manager,
      body: { name: "Hook", channel: "webhook", target: "ftp://example.test/x" },
    });
    expect(ftp.status).toBe(400);
  });

  it("a route needs somebody to reach, and quiet hours both ends; removing is audited", async () => {
    const none = await h.call(routes, "POST", "/api/notify/routes", {
      cookie: cookies.manager,
      body: { kind: "terminal_quiet" },
    });
    expect(none.status).toBe(400);
    const half = await h.call(routes, "POST", "/api/notify/routes", {
      cookie: cookies.manager,
      body: { kind: null, roles: ["manager"], quiet_from: "23:00" },
    });
    expect(half.status).toBe(400);
    const ok = await h.call(routes, "POST", "/api/notify/routes", {
      cookie: cookies.manager,
      body: { kind: null, roles: ["manager"], quiet_from: "23:00", quiet_to: "07:30" },
    });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ quiet_from: 23 * 60, quiet_to: 7 * 60 + 30, kind: null });
    const [chat] = (await (await h.call(settings, "GET", "/api/notify", { cookie: cookies.manager })).json())
      .contacts as { id: string }[];
    const removed = await h.call(contact, "DELETE", `/api/notify/contacts/${chat!.id}`, {
      cookie: cookies.manager,
      params: { id: chat!.id },
    });
    expect(removed.status).toBe(200);
    const audit = await h.db.query<{ action: string }>(
      "select action from audit_log where action like 'notify.%' order by id",
    );
    expect(audit.map((a) => a.action)).toEqual([
      "notify.add_contact",
      "notify.add_route",
      "notify.remove_contact",
    ]);
  });

  it("an alert's delivery log is for the roles that see its kind", async () => {
    await insertAlert(
      h.db,
      { kind: "sync_quota", subject: "*", severity: "warning", figures: {}, link: "/connection" },
      new Date(),
    );
    const [row] = await h.db.query<{ id: string }>(
      "select id::text as id from alerts where kind = 'sync_quota'",
    );
    const get = (role: string) =>
      h.call(deliveries, "GET", `/api/alerts/${row!.id}/deliveries`, {
        cookie: cookies[role],
        params: { id: row!.id },
      });
    expect((await get("manager")).status).toBe(200);
    expect(await (await get("manager")).json()).toEqual({ deliveries: [] });
    // sync_quota is the manager's alone.
    expect((await get("supervisor")).status).toBe(404);
  });
});
