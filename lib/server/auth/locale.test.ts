import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { testDashboard } from "@/lib/testing/test-dashboard";
import type { Dashboard } from "../dashboard";
import { addUser } from "./accounts";
import { chooseLocale } from "./locale";
import { SESSION_COOKIE, type SessionUser, sessionOfSeal, startSession } from "./session";

let db: Db;
let dashboard: Dashboard;

beforeAll(async () => {
  db = await openTestDashboardStore();
  dashboard = testDashboard(db, { clock: () => new Date("2026-07-10T21:00:00.000Z") });
});
afterAll(async () => {
  await db?.close();
});

/** A new account, signed in: its session as the console reads it from the cookie. */
async function sessionFor(username: string) {
  const user = await addUser(db, username, "a-long-password-1", "staff");
  return signInAgain(user);
}

/** Another session of the same account (another browser, or after signing in again). */
async function signInAgain(user: SessionUser) {
  const setCookie = await startSession(
    dashboard.db,
    dashboard.config,
    { id: user.id, username: user.username, role: user.role, locale: user.locale },
    { address: null, userAgent: "vitest" },
    dashboard.clock(),
  );
  const seal = decodeURIComponent(setCookie.split(";")[0]!.slice(SESSION_COOKIE.length + 1));
  return (await sessionOfSeal(dashboard.db, dashboard.config, seal, dashboard.clock()))!;
}

describe("the language of an account", () => {
  it("is none until chosen (the browser's language applies), then kept with the account", async () => {
    const session = await sessionFor("gate-es");
    expect(session.user.locale).toBeNull();
    const chosen = await chooseLocale(dashboard, session, "es");
    expect(chosen.answer).toEqual({ locale: "es", saved_with_account: true });
    expect(chosen.cookies[0]).toMatch(/^console_locale=es; Path=\/; Max-Age=31536000/);
    // Another browser of the same account speaks it from the first page.
    expect((await signInAgain(session.user)).user.locale).toBe("es");
    // Other accounts keep following their browser.
    expect((await sessionFor("gate-other")).user.locale).toBeNull();
  });

  it("a session reads the account's language fresh, so a choice counts at once on every instance", async () => {
    const session = await sessionFor("gate-fresh");
    await chooseLocale(dashboard, session, "es");
    const [row] = await db.query<{ locale: string }>("select locale from users where id = $1", [
      session.user.id,
    ]);
    expect(row?.locale).toBe("es");
  });

  it("signed out, the choice is only remembered by this browser", async () => {
    const chosen = await chooseLocale(dashboard, null, "es");
    expect(chosen.answer.saved_with_account).toBe(false);
    expect(chosen.cookies).toHaveLength(1);
  });

  it("the store refuses a language the console does not have", async () => {
    const session = await sessionFor("gate-bad");
    await expect(
      db.query("update users set locale = 'fr' where id = $1", [session.user.id]),
    ).rejects.toThrow();
  });
});
