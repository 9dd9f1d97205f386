import { expect, type Page, test } from "@playwright/test";
import { dayOfToday, type GateDay, gateToday } from "../lib/shared/gate-verdict";
import type { Locale } from "../lib/shared/i18n/locales";
import { translatorFor } from "../lib/shared/i18n/messages";
import type { Role } from "../lib/shared/permissions";
import { BROWSER_LOCALE, iPhone } from "./phone-camera";
import {
  createFixtureKey,
  expectNoViolations,
  LOGINS,
  runCode,
  SAME_ORIGIN,
  SHARED_SANDBOX,
  sandboxApi,
  sandboxNow,
} from "./support";

// The demo accounts and the sandbox clock: one such spec at a time (e2e/support.ts).
test.describe.configure({ lock: SHARED_SANDBOX });

/**
 * The gate never misleads (issue 23), on an iPhone 13 in English and in Spanish: a ticket for
 * another day says "not valid today" with its days and staff cannot check it in (nor can the route
 * handler be made to); a supervisor checks it in with the explicit override and the audit log shows
 * it as one; codes are found whatever their case and spaces; the sign-in page speaks the browser's
 * language, errors included, and switches language before anyone signs in.
 */

const RUN = runCode("GV");
let key = "";
let typeId = "";
let days: GateDay[] = [];
let timeZone = "UTC";
let now = new Date(0);

const api = <T>(path: string, init: RequestInit = {}) => sandboxApi<T>(key, path, init);

test.beforeAll(async () => {
  key = await createFixtureKey("e2e gate verdict fixtures");
  typeId = (await api<{ data: { id: string }[] }>("/v1/ticket-types")).body.data[0]!.id;
  days = (await api<{ data: GateDay[] }>("/v1/days")).body.data;
  timeZone = (await api<{ time_zone: string }>("/v1/event")).body.time_zone;
  now = await sandboxNow();
});

/** A day the sandbox is not on now (the event's "today" by the gate's rule), to make a wrong-day ticket. */
function wrongDay(): GateDay {
  const today = dayOfToday(gateToday(days, now, timeZone));
  // The first day (past: it cannot become today while the test runs), unless it is today.
  return days.find((d) => d.id !== today?.id)!;
}

let serial = 0;
async function ticket(validDays: GateDay[], name = "Gate Verdict Guest"): Promise<string> {
  const code = `${RUN}-${++serial}`;
  const created = await api("/v1/tickets", {
    method: "POST",
    body: JSON.stringify({
      tickets: [
        {
          code,
          ticket_type_id: typeId,
          attendee: { name, email: `g${serial}@${RUN.toLowerCase()}.example.com` },
          valid_days: validDays.map((d) => d.id),
        },
      ],
    }),
  });
  expect(created.status).toBe(201);
  return code;
}

async function upstreamTicket(code: string) {
  return (await api<{ status: string; wristband: { nfc: string } | null }>(`/v1/tickets/${code}`)).body;
}

/**
 * Signs in on the sign-in page (whatever language it speaks), then makes the console speak `lang`
 * for this account: a manager's or supervisor's account may keep a language chosen by another spec.
 */
async function signInAs(page: Page, role: Role, lang: Locale) {
  await page.goto("/login");
  await page.locator("#username").fill(LOGINS[role].username);
  await page.locator("#password").fill(LOGINS[role].password);
  await page.locator("button[type=submit]").click();
  await expect(page).not.toHaveURL(/\/login/);
  if ((await page.locator("html").getAttribute("lang")) !== lang) {
    const res = await page.request.post("/api/auth/locale", { data: { locale: lang }, headers: SAME_ORIGIN });
    expect(res.status()).toBe(200);
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
  }
}

/** Leaves the shared demo accounts in English, as the other specs expect them. */
async function backToEnglish(page: Page) {
  await page.request.post("/api/auth/locale", { data: { locale: "en" }, headers: SAME_ORIGIN });
}

async function search(page: Page, lang: Locale, text: string) {
  const t = translatorFor(lang);
  await page.getByLabel(t("search.label")).fill(text);
  await page.getByRole("button", { name: t("search.submit"), exact: true }).click();
}

for (const lang of ["en", "es"] as const) {
  const t = translatorFor(lang);

  test.describe(`at the gate, in ${lang === "en" ? "English" : "Spanish"}`, () => {
    test.use({ ...iPhone, locale: BROWSER_LOCALE[lang] });

    test("a ticket for another day shows “not valid today” with its days, and staff cannot check it in", async ({
      page,
    }) => {
      const day = wrongDay();
      const code = await ticket([day]);
      await signInAs(page, "staff", lang);
      await search(page, lang, code);
      await expect(page.getByRole("heading", { name: t("ticket.title", { code }) })).toBeVisible();
      const verdict = page.getByTestId("verdict");
      await expect(verdict).toHaveAttribute("data-verdict", "not_valid_today");
      await expect(verdict.getByTestId("verdict-headline")).toHaveText(t("gate.notValidToday"));
      await expect(verdict.getByTestId("verdict-days")).toHaveText(t("gate.validOn", { days: day.name }));
      // Not offered: no check-in form, no override; staff are told who can.
      await expect(page.getByRole("button", { name: t("ticket.checkIn"), exact: true })).toHaveCount(0);
      await expect(page.getByRole("button", { name: t("ticket.checkInAnywayStart") })).toHaveCount(0);
      await expect(page.getByText(t("ticket.wrongDayStaff"))).toBeVisible();
      await expectNoViolations(page, `a wrong-day ticket as staff (${lang})`);

      // Nor on the server: refused with or without the override, and nothing is checked in.
      const post = (body: Record<string, unknown>) =>
        page.request.post(`/api/tickets/${code}/check-in`, {
          headers: SAME_ORIGIN,
          data: { nfc: `${code}-NFC`, idempotency_key: crypto.randomUUID(), ...body },
        });
      const refused = await post({});
      expect(refused.status()).toBe(409);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("ticket_not_valid_today");
      expect(error.message).toContain(day.name);
      expect((await post({ override: true })).status()).toBe(403);
      expect((await upstreamTicket(code)).status).toBe("active");
    });

    test("a supervisor checks it in with “Check in anyway”, and the audit log shows the override", async ({
      page,
      browser,
    }) => {
      const day = wrongDay();
      const code = await ticket([day]);
      const nfc = `${code}-NFC`;
      await signInAs(page, "supervisor", lang);
      try {
        await page.goto(`/tickets/${code}`);
        await expect(page.getByTestId("verdict")).toHaveAttribute("data-verdict", "not_valid_today");
        await expect(page.getByRole("button", { name: t("ticket.checkIn"), exact: true })).toHaveCount(0);
        await page.getByRole("button", { name: t("ticket.checkInAnywayStart") }).click();
        const form = page.getByRole("region", { name: t("ticket.wrongDayTitle") });
        await expect(form).toContainText(day.name);
        await expectNoViolations(page, `the override's second step (${lang})`);
        await form.getByLabel(t("ticket.nfc")).fill(nfc);
        await form.getByRole("button", { name: t("ticket.checkInAnyway"), exact: true }).click();
        await expect(page.getByTestId("status")).toHaveText(t("status.used"));
        await expect(page.getByTestId("verdict")).toHaveAttribute("data-verdict", "used");
        await expect(page.getByTestId("verdict-headline")).toHaveText(t("gate.used"));
        await expect(page.getByTestId("verdict")).toContainText(nfc);
        expect(await upstreamTicket(code)).toMatchObject({ status: "used", wristband: { nfc } });
      } finally {
        await backToEnglish(page);
      }

      const context = await browser.newContext({ ...iPhone, locale: BROWSER_LOCALE[lang] });
      const manager = await context.newPage();
      try {
        await signInAs(manager, "manager", lang);
        await manager.goto("/audit");
        const entry = manager.getByRole("main").getByRole("listitem").filter({ hasText: code });
        await expect(entry.filter({ hasText: "tickets.check_in_override" })).toHaveCount(1);
        await expect(entry.filter({ hasText: "tickets.check_in_override" })).toContainText(day.name);
        await expect(entry.filter({ hasText: "tickets.check_in_override" })).toContainText("supervisor");
      } finally {
        await backToEnglish(manager);
        await context.close();
      }
    });

    test("a code typed in lower case, with spaces or a missing dash is found; so is a wristband's", async ({
      page,
    }) => {
      const code = await ticket(days);
      const nfc = `${code}-NFC`;
      const checked = await api(`/v1/tickets/${code}/check-in`, {
        method: "POST",
        body: JSON.stringify({ wristband: { nfc } }),
      });
      expect(checked.status).toBe(200);
      const seeded = (await api<{ data: { code: string }[] }>("/v1/tickets?limit=1")).body.data[0]!.code;
      await signInAs(page, "staff", lang);
      for (const typed of [
        code.toLowerCase(),
        `  ${code.slice(0, 3)} ${code.slice(3).toLowerCase()} `,
        seeded.replace("-", " ").toLowerCase(),
      ]) {
        const expected = typed.includes(seeded.slice(3).toLowerCase()) ? seeded : code;
        await search(page, lang, typed);
        await expect(
          page.getByRole("heading", { name: t("ticket.title", { code: expected }) }),
        ).toBeVisible();
        // What was typed stays in the box (the results page shows it trimmed).
        const box = page.getByLabel(t("search.label"));
        await expect.poll(async () => (await box.inputValue()).trim()).toBe(typed.trim());
      }
      await search(page, lang, nfc.toLowerCase());
      await expect(page.getByRole("heading", { name: t("wristband.title", { nfc }) })).toBeVisible();
      await expect(page.getByTestId("verdict")).toHaveAttribute(
        "data-verdict",
        /valid_today|not_valid_today/,
      );
    });

    test("the sign-in page speaks the browser's language, errors included, and switches language before sign-in", async ({
      page,
    }) => {
      const other: Locale = lang === "en" ? "es" : "en";
      const o = translatorFor(other);
      await page.goto("/login");
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await page.getByLabel(t("login.username")).fill(`nobody-${RUN.toLowerCase()}-${lang}`);
      await page.getByLabel(t("login.password")).fill("not the password");
      await page.getByRole("button", { name: t("login.signIn") }).click();
      const expected = lang === "en" ? "Wrong username or password." : t("errors.invalid_credentials");
      const alert = page.getByRole("main").getByRole("alert");
      await expect(alert).toHaveText(expected);
      // Every control of the sign-in page is a 44 px target.
      const small = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("button, input, select")]
          .filter((el) => el.getBoundingClientRect().height < 44 - 0.5)
          .map((el) => `${el.tagName} ${el.id || el.textContent} ${el.getBoundingClientRect().height}px`),
      );
      expect(small).toEqual([]);
      await expectNoViolations(page, `the sign-in page with an error (${lang})`);

      // Nobody is signed in: the choice is kept in this browser's cookie.
      await page.getByLabel(t("language.label")).selectOption(other);
      await expect(page.locator("html")).toHaveAttribute("lang", other);
      await expect(page.getByRole("button", { name: o("login.signIn") })).toBeVisible();
      // The error already shown says it again in the new language.
      await expect(alert).toHaveText(
        other === "en" ? "Wrong username or password." : o("errors.invalid_credentials"),
      );
      expect((await page.context().cookies()).find((c) => c.name === "console_locale")?.value).toBe(other);
      await page.reload();
      await expect(page.getByLabel(o("login.username"))).toBeVisible();
      await page.getByLabel(o("language.label")).selectOption(lang);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
    });
  });
}
