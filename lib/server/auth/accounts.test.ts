import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "@/lib/db/db";
import { runMigrations } from "@/lib/db/migrate";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { testDashboard } from "@/lib/testing/test-dashboard";
import { createTestSchema, type TestSchema, testDatabaseUrls } from "@/lib/testing/test-db";
import { DASHBOARD_STORE } from "../store";
import { addUser, endSessionsOf, listUsers, removeUser, setPassword, setRole, UserError } from "./accounts";
import { hashPassword, verifyPassword } from "./passwords";
import { SESSION_TTL_S, sessionOfSeal } from "./session";
import { signIn, signOut, signOutEverywhere } from "./sign-in";
import { checkCredentials } from "./throttle";

/**
 * Users and server-side sessions. "Another instance" is another handle on the same store: on
 * PostgreSQL (the second pass) a second connection pool on the same schema, exactly what a second
 * `next start` process holds; on PGlite (one process per store) the same handle.
 */

let db: Db;
let other: Db;
let schema: TestSchema | null = null;

beforeAll(async () => {
  if (testDatabaseUrls.dashboard) {
    schema = await createTestSchema(testDatabaseUrls.dashboard);
    db = await openDb({ databaseUrl: schema.url });
    await runMigrations(db, DASHBOARD_STORE);
    other = await openDb({ databaseUrl: schema.url });
  } else {
    db = await openTestDashboardStore();
    other = db;
  }
});
afterAll(async () => {
  if (other !== db) await other?.close();
  await db?.close();
  await schema?.drop();
});

const noDelay = async () => {};
const client = { address: "10.9.0.1", userAgent: "vitest", cookieHeader: null };
/** The instant of every sign-in and session check here (the dashboard's clock). */
const NOW = new Date("2026-07-10T21:00:00.000Z");
const dashboardOf = (on: Db) => testDashboard(on, { clock: () => NOW });

/** Signs in on `on` and answers the sealed session cookie's value. */
async function sessionCookie(on: Db, username: string, password: string): Promise<string> {
  const { cookies } = await signIn(dashboardOf(on), { username, password }, client, { delay: noDelay });
  const cookie = cookies.find((c) => c.startsWith("eoc_session="))!;
  return decodeURIComponent(cookie.split(";")[0]!.slice("eoc_session=".length));
}
const userOf = async (on: Db, seal: string, now = NOW) =>
  (await sessionOfSeal(on, dashboardOf(on).config, seal, now))?.user.username ?? null;

describe("passwords", () => {
  it("are scrypt-hashed with a random salt and verify only with the right password", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("correct");
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
  });
});

describe("users", () => {
  it("adds, lists, changes the password of and removes users; only the hash is stored", async () => {
    await addUser(db, "ana", "first-password-1", "supervisor");
    expect((await listUsers(db)).map((u) => [u.username, u.role])).toContainEqual(["ana", "supervisor"]);
    const [row] = await db.query<{ password_hash: string }>(
      "select password_hash from users where username = 'ana'",
    );
    expect(row!.password_hash).not.toContain("first-password-1");
    await setPassword(db, "ana", "second-password-2");
    const check = (password: string) =>
      checkCredentials(
        db,
        { username: "ana", password, address: null, deviceNonce: null },
        { delay: noDelay, now: NOW },
      );
    expect((await check("first-password-1")).ok).toBe(false);
    expect((await check("second-password-2")).ok).toBe(true);
    await removeUser(db, "ana");
    expect((await listUsers(db)).map((u) => u.username)).not.toContain("ana");
  });

  it("refuses bad input with a message naming the field", async () => {
    await expect(addUser(db, "x", "long-enough-pass", "staff")).rejects.toThrow(/username/);
    await expect(addUser(db, "bob", "short", "staff")).rejects.toThrow(/password/);
    await expect(addUser(db, "bob", "long-enough-pass", "admin" as never)).rejects.toThrow(/role/);
    await addUser(db, "bob", "long-enough-pass", "staff");
    await expect(addUser(db, "bob", "long-enough-pass", "staff")).rejects.toBeInstanceOf(UserError);
    await expect(removeUser(db, "nobody")).rejects.toThrow(/no user/);
    await expect(setRole(db, "bob", "admin")).rejects.toThrow(/role: one of/);
  });
});

describe("server-side sessions", () => {
  it("an old cookie is refused after sign-out on a second instance", async () => {
    await addUser(db, "carla", "carla-password-1", "manager");
    const copied = await sessionCookie(db, "carla", "carla-password-1");
    expect(await userOf(other, copied)).toBe("carla");
    // Signed out on this instance: the very same cookie is dead on the other one at once.
    const session = (await sessionOfSeal(db, dashboardOf(db).config, copied, NOW))!;
    const out = await signOut(dashboardOf(db), session);
    expect(out.cookies[0]).toMatch(/^eoc_session=; Path=\/; Max-Age=0/);
    expect(await userOf(other, copied)).toBeNull();
    expect(await userOf(db, copied)).toBeNull();
  });

  it("a password change, a role change, sign out everywhere and removal end every session", async () => {
    await addUser(db, "dani", "dani-password-1", "supervisor");
    const twoSessions = async () => [
      await sessionCookie(db, "dani", "dani-password-1"),
      await sessionCookie(other, "dani", "dani-password-1"),
    ];
    let cookies = await twoSessions();
    await setPassword(other, "dani", "dani-password-1");
    for (const c of cookies) expect(await userOf(db, c)).toBeNull();

    cookies = await twoSessions();
    await setRole(db, "dani", "staff");
    for (const c of cookies) expect(await userOf(other, c)).toBeNull();

    cookies = await twoSessions();
    const session = (await sessionOfSeal(db, dashboardOf(db).config, cookies[0]!, NOW))!;
    expect(session.user.role).toBe("staff");
    expect((await signOutEverywhere(dashboardOf(db), session)).answer).toEqual({ ok: true, ended: 2 });
    for (const c of cookies) expect(await userOf(other, c)).toBeNull();

    cookies = await twoSessions();
    expect(await endSessionsOf(db, "dani")).toBe(2);
    cookies = await twoSessions();
    await removeUser(other, "dani");
    for (const c of cookies) expect(await userOf(db, c)).toBeNull();
  });

  it("refuses a forged seal, another secret's seal and a session past its 12 hours", async () => {
    await addUser(db, "emil", "emil-password-1", "staff");
    const seal = await sessionCookie(db, "emil", "emil-password-1");
    expect(await userOf(db, `${seal.slice(0, -4)}AAAA`)).toBeNull();
    const otherSecret = testDashboard(db, {
      env: { SESSION_SECRET: "another-secret-0123456789-0123456789" },
    });
    expect(await sessionOfSeal(db, otherSecret.config, seal, NOW)).toBeNull();
    const later = new Date(NOW.getTime() + (SESSION_TTL_S + 60) * 1000);
    expect(await userOf(db, seal, later)).toBeNull();
    expect(await userOf(db, seal)).toBe("emil");
  });
});
