import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db, Queryable } from "@/lib/db/db";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { testDashboard } from "@/lib/testing/test-dashboard";
import type { Dashboard } from "../dashboard";
import { recentSignInFailures } from "../store/sign-in-throttle";
import { accountStates, addUser, unlockAccount } from "./accounts";
import { verifyPassword } from "./passwords";
import { type Client, signIn } from "./sign-in";
import { checkCredentials, SIGN_IN_RULES } from "./throttle";

/**
 * The sign-in rules against a real store: PGlite here, a throwaway PostgreSQL schema in the
 * PostgreSQL pass (there the 40 parallel attempts really run on 10 connections at once).
 */

let db: Db;
let dashboard: Dashboard;
const noDelay = async () => {};
/** The instant of the attempts (the dashboard's clock), unless a test moves it. */
const NOW = new Date("2026-07-10T21:00:00.000Z");

beforeAll(async () => {
  db = await openTestDashboardStore();
  dashboard = testDashboard(db, { clock: () => NOW });
});
afterAll(async () => {
  await db?.close();
});

/** verifyPassword, counting how often a password is actually evaluated. */
function countingVerify() {
  const counter = {
    evaluations: 0,
    verify: async (password: string, hash: string) => {
      counter.evaluations++;
      return verifyPassword(password, hash);
    },
  };
  return counter;
}

const client = (address: string, cookieHeader: string | null = null): Client => ({
  address,
  userAgent: "vitest",
  cookieHeader,
});

const codeOf = (p: Promise<unknown>) =>
  p.then(() => "ok").catch((e: { code?: string }) => e.code ?? String(e));

describe("sign-in throttling", () => {
  it("40 parallel wrong passwords lead to at most 5 evaluations, then even the right one is refused", async () => {
    await addUser(db, "parallel", "right-password-1", "manager");
    const counter = countingVerify();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        checkCredentials(
          db,
          { username: "parallel", password: `wrong-${i}`, address: "203.0.113.7", deviceNonce: null },
          { verify: counter.verify, delay: noDelay, now: NOW },
        ),
      ),
    );
    console.log(`40 parallel wrong passwords (${db.kind}): ${counter.evaluations} evaluated`);
    expect(counter.evaluations).toBeLessThanOrEqual(SIGN_IN_RULES.accountLockAfter);
    expect(counter.evaluations).toBeGreaterThan(0);
    expect(answers.filter((a) => a.ok)).toEqual([]);
    expect(answers.filter((a) => !a.ok && a.reason === "locked").length).toBeGreaterThanOrEqual(35);
    const right = await checkCredentials(
      db,
      { username: "parallel", password: "right-password-1", address: "198.51.100.1", deviceNonce: null },
      { verify: counter.verify, delay: noDelay, now: NOW },
    );
    expect(right).toMatchObject({ ok: false, reason: "locked", scope: "account" });
    expect(counter.evaluations).toBeLessThanOrEqual(SIGN_IN_RULES.accountLockAfter);
  });

  it("the same holds for a name nobody has (no answer tells the two apart)", async () => {
    const counter = countingVerify();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        checkCredentials(
          db,
          { username: "nobody-here", password: `wrong-${i}`, address: "203.0.113.8", deviceNonce: null },
          { verify: counter.verify, delay: noDelay, now: NOW },
        ),
      ),
    );
    expect(counter.evaluations).toBeLessThanOrEqual(SIGN_IN_RULES.accountLockAfter);
    expect(answers.filter((a) => !a.ok && a.reason === "locked").length).toBeGreaterThanOrEqual(35);
  });

  it("answers later and later (1 s, 2 s), then locks for 15 minutes; the lock ends by itself", async () => {
    await addUser(db, "slowly", "slowly-password-1", "staff");
    const delays: number[] = [];
    const delay = async (ms: number) => void delays.push(ms);
    const now = new Date("2026-07-10T20:00:00Z");
    const attempt = (password: string, at = now) =>
      checkCredentials(
        db,
        { username: "slowly", password, address: "192.0.2.1", deviceNonce: null },
        { now: at, delay },
      );
    for (let i = 1; i < SIGN_IN_RULES.accountLockAfter; i++)
      expect(await attempt("wrong")).toEqual({ ok: false, reason: "invalid" });
    expect(delays).toEqual([1000, 2000]);
    const lock = await attempt("wrong");
    expect(lock).toMatchObject({ ok: false, reason: "locked", until: new Date("2026-07-10T20:15:00Z") });
    expect(await attempt("slowly-password-1")).toMatchObject({ reason: "locked" });
    expect(await attempt("slowly-password-1", new Date("2026-07-10T20:16:00Z"))).toMatchObject({ ok: true });
  });

  it("unknown and known names get the same answers, and cost the same work", async () => {
    await addUser(db, "timed", "timed-password-1", "staff");
    const sequence = async (username: string) => {
      const out: string[] = [];
      for (let i = 0; i < SIGN_IN_RULES.accountLockAfter + 1; i++) {
        const r = await checkCredentials(
          db,
          { username, password: "wrong-password", address: "192.0.2.50", deviceNonce: null },
          { delay: noDelay, now: NOW },
        );
        out.push(r.ok ? "ok" : r.reason);
      }
      return out;
    };
    expect(await sequence("timed")).toEqual(await sequence("never-existed"));

    // The same time, as the same work (a stopwatch on a shared machine measures the machine): a
    // first failure of a known and of an unknown name each evaluate scrypt once, at the same cost
    // (N, r, p), and send the store the same statements.
    await addUser(db, "known-0", "known-password-1", "staff");
    const workOf = async (username: string, address: string) => {
      const costs: string[] = [];
      const statements: string[] = [];
      const counted: Queryable = {
        query: (sql, params) => {
          statements.push(sql);
          return db.query(sql, params);
        },
      };
      const answer = await checkCredentials(
        counted,
        { username, password: "wrong-password", address, deviceNonce: null },
        {
          delay: noDelay,
          now: NOW,
          verify: (password, hash) => {
            costs.push(hash.split("$").slice(0, 4).join("$"));
            return verifyPassword(password, hash);
          },
        },
      );
      return { answer, costs, statements };
    };
    const known = await workOf("known-0", "192.0.2.100");
    const unknown = await workOf("unknown-0", "192.0.2.101");
    expect(known.costs).toEqual(["scrypt$16384$8$1"]);
    expect(unknown).toEqual(known);
  });

  it("a trusted browser signs in while another source hammers the account", async () => {
    await addUser(db, "boss", "boss-password-12", "manager");
    const first = await signIn(
      dashboard,
      { username: "boss", password: "boss-password-12" },
      client("10.0.0.5"),
      {
        delay: noDelay,
      },
    );
    const device = first.cookies.find((c) => c.startsWith("eoc_device="))!;
    expect(device).toMatch(/Path=\/api\/auth; .*HttpOnly; SameSite=Strict/);
    const deviceCookie = device.split(";")[0]!;

    // Someone elsewhere hammers the account until it is locked for new browsers.
    const hammering = await Promise.all(
      Array.from({ length: 20 }, () =>
        codeOf(
          signIn(dashboard, { username: "boss", password: "guess" }, client("203.0.113.66"), {
            delay: noDelay,
          }),
        ),
      ),
    );
    expect(hammering).toContain("account_locked");
    expect(
      await codeOf(
        signIn(dashboard, { username: "boss", password: "boss-password-12" }, client("10.0.0.9"), {
          delay: noDelay,
        }),
      ),
    ).toBe("account_locked");

    // The browser that signed in before still can, from the same address as the attacker even.
    const trusted = await signIn(
      dashboard,
      { username: "boss", password: "boss-password-12" },
      client("203.0.113.66", deviceCookie),
      { delay: noDelay },
    );
    expect(trusted.answer).toEqual({ user: { username: "boss", role: "manager" }, home: "/" });
    expect(trusted.cookies.some((c) => c.startsWith("eoc_session="))).toBe(true);

    // A forged or foreign device cookie is no trust at all.
    const forged = `${deviceCookie.slice(0, -3)}abc`;
    expect(
      await codeOf(
        signIn(dashboard, { username: "boss", password: "boss-password-12" }, client("10.0.0.9", forged), {
          delay: noDelay,
        }),
      ),
    ).toBe("account_locked");

    // The users screen sees the lock and the failures; a manager lifts it.
    const boss = (await accountStates(db, NOW)).find((u) => u.username === "boss")!;
    expect(boss.locked_until).not.toBeNull();
    expect(
      (await recentSignInFailures(db, 100)).filter((f) => f.username === "boss").length,
    ).toBeGreaterThanOrEqual(20);
    await unlockAccount(db, "boss");
    expect(
      await codeOf(
        signIn(dashboard, { username: "boss", password: "boss-password-12" }, client("10.0.0.9"), {
          delay: noDelay,
        }),
      ),
    ).toBe("ok");
  });

  it("a trusted browser that keeps failing loses its trust (5 failures), not the account", async () => {
    await addUser(db, "desk-laptop", "laptop-password-1", "supervisor");
    const ok = await signIn(
      dashboard,
      { username: "desk-laptop", password: "laptop-password-1" },
      client("10.1.0.1"),
    );
    const cookie = ok.cookies.find((c) => c.startsWith("eoc_device="))!.split(";")[0]!;
    const attempt = (password: string) =>
      codeOf(
        signIn(dashboard, { username: "desk-laptop", password }, client("10.1.0.1", cookie), {
          delay: noDelay,
        }),
      );
    for (let i = 0; i < SIGN_IN_RULES.deviceLockAfter; i++)
      expect(await attempt("wrong")).toBe("invalid_credentials");
    // Now counted as a new browser: the account's own count (0 so far) applies, and it is not locked.
    expect(await attempt("laptop-password-1")).toBe("ok");
  });

  it("an address is locked for new browsers after 50 failures over any names, not for trusted ones", async () => {
    await addUser(db, "venue", "venue-password-1", "staff");
    const trusted = await signIn(
      dashboard,
      { username: "venue", password: "venue-password-1" },
      client("10.2.0.1"),
    );
    const cookie = trusted.cookies.find((c) => c.startsWith("eoc_device="))!.split(";")[0]!;
    for (let i = 0; i < SIGN_IN_RULES.addressLockAfter; i++) {
      await checkCredentials(
        db,
        { username: `spray-${i}`, password: "x", address: "10.2.0.99", deviceNonce: null },
        { delay: noDelay, now: NOW },
      );
    }
    const fresh = await signIn(
      dashboard,
      { username: "venue", password: "venue-password-1" },
      client("10.2.0.99"),
    ).catch((e) => e);
    expect(fresh).toMatchObject({ code: "account_locked" });
    expect(fresh.message).toContain("from this network");
    expect(
      await codeOf(
        signIn(dashboard, { username: "venue", password: "venue-password-1" }, client("10.2.0.99", cookie)),
      ),
    ).toBe("ok");
  });
});
