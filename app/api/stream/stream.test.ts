import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dashboard } from "@/lib/server/dashboard";
import { pushBus } from "@/lib/server/push";
import { openDashboardStore } from "@/lib/server/store";
import { type Harness, ORIGIN, PASSWORDS, startHarness } from "@/lib/testing/console-harness";
import { EventStreamReader } from "@/lib/testing/event-stream-reader";
import { installDashboard, testDashboard } from "@/lib/testing/test-dashboard";
import { createTestSchema, testDatabaseUrls } from "@/lib/testing/test-db";
import * as logout from "../auth/logout/route";
import * as signOutUser from "../users/[username]/sign-out/route";
import * as stream from "./route";

/**
 * GET /api/stream through its real route handler: only a signed-in browser gets it; it carries the
 * changes; signing out (or a manager ending the session) ends it at the next heartbeat; streams
 * read nothing upstream. On PostgreSQL, the route handlers of two instances of one store: a change
 * on the instance that syncs reaches a browser on the other.
 */

let h: Harness;
let upstreamReads = 0;
const ends: (() => void)[] = [];

beforeAll(async () => {
  h = await startHarness({ upstream: false, env: { PUSH_HEARTBEAT_S: "0.02" } });
  // Every upstream request is counted (and refused): a stream must make none.
  installDashboard(
    testDashboard(h.db, {
      env: { PUBLIC_URL: ORIGIN, PUSH_HEARTBEAT_S: "0.02" },
      fetch: async () => {
        upstreamReads++;
        throw new Error("no upstream in this test");
      },
    }),
  );
});
afterAll(async () => {
  for (const end of ends) end();
  await h?.close();
});

function open(cookie: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  ends.push(() => controller.abort());
  const request = new Request(`${ORIGIN}/api/stream`, {
    headers: { host: "console.test", cookie, ...headers },
    signal: controller.signal,
  });
  return { response: stream.GET(request, { params: Promise.resolve({}) }), abort: () => controller.abort() };
}

const dashboardOf = async (): Promise<Dashboard> =>
  (globalThis as unknown as { __dashboard: Promise<Dashboard> }).__dashboard;

describe("GET /api/stream", () => {
  it("refuses a browser that is not signed in (401, the one error envelope)", async () => {
    const response = await open("").response;
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("not_signed_in");
  });

  it("streams the changes to a signed-in browser, ends when it signs out, and reads nothing upstream", async () => {
    const { cookie } = await h.signIn("staff", PASSWORDS.staff);
    const bus = pushBus((await dashboardOf()).db);
    const streams = await Promise.all(Array.from({ length: 5 }, () => open(cookie).response));
    const readers = streams.map((r) => new EventStreamReader(r));
    expect(streams.every((r) => r.status === 200 && r.headers.get("x-accel-buffering") === "no")).toBe(true);
    await Promise.all(readers.map((r) => r.readUntil((f) => f.length >= 1)));
    expect(bus.subscribers).toBe(5);
    bus.emit("sales");
    for (const reader of readers) {
      await reader.readUntil(() => reader.of("change").length === 1);
      expect(JSON.parse(reader.of("change")[0]!.data!).topics).toEqual(["sales"]);
      await reader.readUntil(() => reader.of("heartbeat").length >= 3);
    }
    const signedOut = await h.call(logout, "POST", "/api/auth/logout", { cookie });
    expect(signedOut.status).toBe(200);
    await Promise.all(readers.map((r) => r.readToEnd()));
    expect(readers.every((r) => r.ended)).toBe(true);
    expect(bus.subscribers).toBe(0);
    expect(upstreamReads).toBe(0);
  });

  it("a session a manager ends everywhere stops receiving too", async () => {
    const { cookie } = await h.signIn("supervisor", PASSWORDS.supervisor);
    const manager = await h.signIn("manager", PASSWORDS.manager);
    const reader = new EventStreamReader(await open(cookie).response);
    await reader.readUntil((f) => f.length >= 1);
    const ended = await h.call(signOutUser, "POST", "/api/users/supervisor/sign-out", {
      cookie: manager.cookie,
      params: { username: "supervisor" },
    });
    expect(ended.status).toBe(200);
    await reader.readToEnd();
    expect(reader.ended).toBe(true);
  });
});

describe.runIf(testDatabaseUrls.dashboard)("two instances on PostgreSQL", () => {
  it("the non-syncing instance's route handler streams what the syncing instance emits", async () => {
    const schema = await createTestSchema(testDatabaseUrls.dashboard!);
    const a = await openDashboardStore({ databaseUrl: schema.url });
    const b = await openDashboardStore({ databaseUrl: schema.url });
    const env = { PUBLIC_URL: ORIGIN, PUSH_HEARTBEAT_S: "0.05", DATABASE_URL: schema.url };
    const instanceA = testDashboard(a, { env });
    const instanceB = testDashboard(b, { env });
    const previous = await dashboardOf();
    try {
      // Sessions live in the store: signed in on A, the cookie works on B.
      installDashboard(instanceA);
      const { addUser } = await import("@/lib/server/auth/accounts");
      await addUser(a, "manager", PASSWORDS.manager, "manager");
      const { cookie } = await h.signIn("manager", PASSWORDS.manager);
      installDashboard(instanceB);
      const response = await open(cookie).response;
      expect(response.status).toBe(200);
      const reader = new EventStreamReader(response);
      await reader.readUntil((f) => f.length >= 1);
      // The route handler had B listen: its LISTEN is up before A emits.
      await pushBus(b).whenHearingOthers();
      // The sync worker runs on A: its tail poll wrote sales.
      pushBus(a).emit("sales");
      await reader.readUntil(() => reader.of("change").length === 1);
      expect(JSON.parse(reader.of("change")[0]!.data!).topics).toEqual(["sales"]);
    } finally {
      installDashboard(previous);
      for (const end of ends.splice(0)) end();
      await Promise.all([pushBus(a).close(), pushBus(b).close()]);
      await Promise.all([a.close(), b.close()]);
      await schema.drop();
    }
  });
});
