import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as connect from "@/app/api/wall/connect/route";
import * as heartbeat from "@/app/api/wall/session/route";
import * as revoke from "@/app/api/walls/[id]/revoke/route";
import * as walls from "@/app/api/walls/route";
import { sessionOfSeal } from "@/lib/server/auth/session";
import { WALL_RENEW_AFTER_S, WALL_TTL_S, wallHeartbeat } from "@/lib/server/auth/wall-session";
import type { EndpointSpec } from "@/lib/shared/api/endpoints";
import { allEndpoints } from "@/lib/shared/api/endpoints";
import { can } from "@/lib/shared/permissions";
import { cookiesOf, type Harness, PASSWORDS, startHarness } from "@/lib/testing/console-harness";
import { routeModules } from "@/lib/testing/route-modules";

/**
 * A wall is its own kind of session: a manager issues a token (only its hash is stored), the TV
 * trades it once for a session cookie, that session reads what the wall shows and is refused every
 * lookup, every money action and every other write, and revoking the wall ends it at once.
 */

let h: Harness;
let manager: string;
beforeAll(async () => {
  h = await startHarness({ upstream: false });
  manager = (await h.signIn("manager", PASSWORDS.manager)).cookie;
});
afterAll(async () => {
  await h?.close();
});

async function issue(name: string) {
  const res = await h.call(walls, "POST", "/api/walls", { cookie: manager, body: { name } });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { wall: { id: string }; connect_path: string };
  const [path, token] = body.connect_path.split("#");
  expect(path).toBe("/wall/connect");
  return { id: body.wall.id, token: token! };
}

async function connectWith(token: string) {
  const res = await h.call(connect, "POST", "/api/wall/connect", { body: { token } });
  return { status: res.status, cookie: cookiesOf(res) };
}

const sealOf = (cookie: string) => decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));

describe("wall sessions", () => {
  it("stores only the token's hash, and the link connects a browser once a manager issued it", async () => {
    const { id, token } = await issue("Bar tent TV");
    const rows = await h.db.query<Record<string, unknown>>("select * from walls where id = $1", [id]);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.token_hash).toBe(createHash("sha256").update(token).digest("hex"));

    const wall = await connectWith(token);
    expect(wall.status).toBe(200);
    expect(wall.cookie).toMatch(/^eoc_session=/);
    const res = await h.call(heartbeat, "GET", "/api/wall/session", { cookie: wall.cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ wall: "Bar tent TV", renewed: false });
    const [seen] = await h.db.query<{ last_seen_at: Date | null }>(
      "select last_seen_at from walls where id = $1",
      [id],
    );
    expect(seen!.last_seen_at).not.toBeNull();

    // A made-up token, or a token of the right shape that was never issued, connects nothing.
    expect((await connectWith("x".repeat(43))).status).toBe(401);
    expect((await connectWith("short")).status).toBe(400);
  });

  it("is refused (403) by every endpoint whose permission a wall lacks: every lookup, money action and write", async () => {
    const { token } = await issue("Gate TV");
    const wall = (await connectWith(token)).cookie;
    const refused: string[] = [];
    const allowed: string[] = [];
    for (const { path, module } of await routeModules()) {
      for (const [method, handler] of Object.entries(module)) {
        const endpoint = (handler as { endpoint?: EndpointSpec }).endpoint!;
        if (endpoint.permission === "public" || endpoint.permission === "signed-in") continue;
        if (can("wall", endpoint.permission)) {
          allowed.push(endpoint.name);
          continue;
        }
        // The permission is checked before the input is read: any segment values will do.
        const params = Object.fromEntries([...path.matchAll(/\[(\w+)\]/g)].map((m) => [m[1]!, "x"]));
        const res = await h.call(module, method as "GET", path.replace(/\[(\w+)\]/g, "x"), {
          cookie: wall,
          params,
          ...(method === "GET" ? {} : { body: {} }),
        });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe("forbidden");
        refused.push(endpoint.name);
      }
    }
    // A wall reads the overview's and right now's figures and its own poll, nothing else.
    expect(allowed.sort()).toEqual(["live.overview", "live.right_now", "wall.session"]);
    const lookups = allEndpoints.filter((e) => e.refresh === "lookup").map((e) => e.name);
    const writes = allEndpoints
      .filter((e) => e.method !== "GET" && e.permission !== "public" && e.permission !== "signed-in")
      .map((e) => e.name);
    expect(lookups.length).toBeGreaterThan(4);
    expect(refused).toEqual(expect.arrayContaining([...lookups, ...writes]));
    // The money actions and the gate's tools by name, so a renamed one cannot slip out of the list.
    expect(refused).toEqual(
      expect.arrayContaining([
        "gate.search",
        "gate.ticket",
        "gate.wristband",
        "desk.topup",
        "desk.withdrawal",
        "night.signoff",
        "users.list",
        "wall.issue",
      ]),
    );
  });

  it("ends at once when the wall is revoked (audited, the first revocation stands)", async () => {
    const { id, token } = await issue("Main stage TV");
    const wall = (await connectWith(token)).cookie;
    expect((await h.call(heartbeat, "GET", "/api/wall/session", { cookie: wall })).status).toBe(200);

    const res = await h.call(revoke, "POST", `/api/walls/${id}/revoke`, { cookie: manager, params: { id } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ changed: true, wall: { revoked_by: "manager" } });
    const after = await h.call(heartbeat, "GET", "/api/wall/session", { cookie: wall });
    expect(after.status).toBe(401);
    expect((await connectWith(token)).status).toBe(401);

    const again = await h.call(revoke, "POST", `/api/walls/${id}/revoke`, {
      cookie: manager,
      params: { id },
    });
    expect(await again.json()).toMatchObject({ changed: false });
    const audit = await h.db.query<{ action: string; outcome: string }>(
      "select action, outcome from audit_log where target = $1 order by id",
      [id],
    );
    expect(audit).toEqual([
      { action: "wall.issue", outcome: "ok" },
      { action: "wall.revoke", outcome: "ok" },
      { action: "wall.revoke", outcome: "unchanged" },
    ]);
  });

  it("never expires while in use: the poll renews the cookie once a day; unused for 30 days it lapses", async () => {
    const { token } = await issue("Office TV");
    const seal = sealOf((await connectWith(token)).cookie);
    const { config } = h.dashboard;
    const start = Date.now();
    const at = (s: number) => new Date(start + s * 1000);
    const session = (await sessionOfSeal(h.db, config, seal, at(60)))!;
    expect(session.user.role).toBe("wall");
    expect((await wallHeartbeat(h.db, config, session, at(3600))).cookies).toEqual([]);

    const renewed = await wallHeartbeat(h.db, config, session, at(WALL_RENEW_AFTER_S + 60));
    expect(renewed.answer.renewed).toBe(true);
    const fresh = sealOf(renewed.cookies[0]!);
    expect(await sessionOfSeal(h.db, config, fresh, at(WALL_RENEW_AFTER_S + WALL_TTL_S - 60))).not.toBeNull();
    // The first cookie, never renewed, is refused after its 30 days.
    expect(await sessionOfSeal(h.db, config, seal, at(WALL_TTL_S + 60))).toBeNull();
  });

  it("a manager looking at the wall gets the figures and no wall cookie", async () => {
    const res = await h.call(heartbeat, "GET", "/api/wall/session", { cookie: manager });
    expect(await res.json()).toMatchObject({ wall: null, renewed: false });
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});
