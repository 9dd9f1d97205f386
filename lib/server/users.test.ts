import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import { hashPassword, verifyPassword } from "./passwords";
import { openTestDashboardStore } from "./store/test-store";
import {
  addUser,
  LOCK_AFTER,
  listUsers,
  login,
  removeUser,
  SLOW_AFTER,
  setPassword,
  UserError,
} from "./users";

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
});
afterAll(async () => {
  await db.close();
});

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
    expect(row.password_hash).not.toContain("first-password-1");
    await setPassword(db, "ana", "second-password-2");
    expect((await login(db, "ana", "first-password-1", { delay: async () => {} })).ok).toBe(false);
    expect((await login(db, "ana", "second-password-2")).ok).toBe(true);
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
  });

  it("slows down repeated wrong passwords, then locks the account; the lock ends by itself", async () => {
    await addUser(db, "gate1", "gate-password-1", "staff");
    const delays: number[] = [];
    const delay = async (ms: number) => {
      delays.push(ms);
    };
    const now = new Date("2026-07-10T20:00:00Z");
    for (let i = 1; i < LOCK_AFTER; i++) {
      expect(await login(db, "gate1", "wrong-password", { now, delay })).toEqual({
        ok: false,
        reason: "invalid",
      });
    }
    expect(delays).toEqual(Array.from({ length: LOCK_AFTER - SLOW_AFTER }, (_, k) => 1000 * 2 ** k));
    const locked = await login(db, "gate1", "wrong-password", { now, delay });
    expect(locked).toMatchObject({ ok: false, reason: "locked" });
    // Even the right password is refused while locked.
    expect(await login(db, "gate1", "gate-password-1", { now, delay })).toMatchObject({ reason: "locked" });
    const later = new Date(now.getTime() + 16 * 60_000);
    expect(await login(db, "gate1", "gate-password-1", { now: later, delay })).toMatchObject({ ok: true });
  });

  it("answers an unknown user like a wrong password", async () => {
    expect(await login(db, "ghost", "whatever-pass")).toEqual({ ok: false, reason: "invalid" });
  });
});
