import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { translatorFor } from "../lib/shared/i18n/messages";
import { can, type Role, roles, screens } from "../lib/shared/permissions";
import { englishIn, englishOnlyFragments, englishOnPage } from "./english-words";
import { BROWSER_LOCALE, iPhone } from "./phone-camera";
import {
  createFixtureKey,
  LOGINS,
  SAME_ORIGIN,
  SHARED_SANDBOX,
  sandboxApi,
  waitForFirstSync,
} from "./support";

/**
 * Every word in the user's language (issue 23): every screen, for every role that may open it, in a
 * Spanish browser (es-ES) on an iPhone 13, with the menu open, shows no English word of the
 * console: no fixed text of an English message that differs from its Spanish one (data — names,
 * codes, products, zones, device ids — is not words of the console: see e2e/english-words.ts).
 * Also the pages a search opens (a ticket, a wristband, name results), a terminal's page, the
 * desk with a wristband loaded and the sign-in page with an error.
 */

test.use({ ...iPhone, locale: BROWSER_LOCALE.es });
test.describe.configure({ lock: SHARED_SANDBOX, timeout: 180_000 });

const t = translatorFor("es");
const FRAGMENTS = englishOnlyFragments();
const fixture = { activeTicket: "", usedTicket: "", wristband: "" };

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  const key = await createFixtureKey("e2e spanish fixtures");
  const get = async <T>(path: string) => (await sandboxApi<T>(key, path)).body;
  fixture.activeTicket = (await get<{ data: { code: string }[] }>("/v1/tickets?status=active&limit=1"))
    .data[0]!.code;
  const bands = await get<{ data: { nfc: string; ticket: { code: string } | null }[] }>(
    "/v1/wristbands?status=active&limit=50",
  );
  const band = bands.data.find((b) => b.ticket)!;
  fixture.wristband = band.nfc;
  fixture.usedTicket = band.ticket!.code;
  // The live screens read the mirror: wait until it holds the event.
  const page = await browser.newPage();
  await signInSpanish(page, "manager");
  await waitForFirstSync(page);
  await page.request.post("/api/auth/locale", { data: { locale: "en" }, headers: SAME_ORIGIN });
  await page.close();
});

/** Signs in and makes this account speak Spanish (another spec may have chosen English for it). */
async function signInSpanish(page: Page, role: Role) {
  await page.goto("/login");
  await page.locator("#username").fill(LOGINS[role].username);
  await page.locator("#password").fill(LOGINS[role].password);
  await page.locator("button[type=submit]").click();
  await expect(page).not.toHaveURL(/\/login/);
  if ((await page.locator("html").getAttribute("lang")) !== "es") {
    await page.request.post("/api/auth/locale", { data: { locale: "es" }, headers: SAME_ORIGIN });
    await page.reload();
  }
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
}

/** Waits until a page shows its data: its heading, nothing loading, the live "as of" time. */
async function settled(page: Page) {
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("main [aria-busy=true]")).toHaveCount(0, { timeout: 60_000 });
  const asOf = page.getByTestId("as-of");
  if ((await asOf.count()) > 0) await expect(asOf.first()).toHaveText(/\d\d:\d\d/, { timeout: 60_000 });
  // Charts draw once they have measured their box.
  for (const figure of await page.getByRole("main").getByRole("figure").all())
    await expect(figure.locator("svg").first()).toBeVisible();
}

async function expectSpanish(page: Page, where: string) {
  expect(await englishOnPage(page, FRAGMENTS), `English words on ${where}`).toEqual([]);
}

test("the detector finds an English word of the console, and leaves data alone", async ({ page }) => {
  await page.goto("/login");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expectSpanish(page, "/login");
  const en = translatorFor("en");
  await page.evaluate(
    ([word, sentence]) => {
      const p = document.createElement("p");
      p.textContent = word!;
      const q = document.createElement("p");
      q.textContent = `Hola: ${sentence}`;
      const data = document.createElement("bdi");
      data.translate = false;
      data.textContent = word!;
      document.body.append(p, q, data);
    },
    [en("login.signIn"), en("search.more", { max: 20 })],
  );
  const found = await englishOnPage(page, FRAGMENTS);
  expect(found).toHaveLength(2);
  expect(englishIn("Entrar", FRAGMENTS)).toBeNull();
  expect(englishIn(en("gate.notValidToday"), FRAGMENTS)).toBe(en("gate.notValidToday"));
});

test("the sign-in page, with a refused sign-in", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel(t("login.username")).fill(`nadie-${randomUUID().slice(0, 8)}`);
  await page.getByLabel(t("login.password")).fill("no es la contraseña");
  await page.getByRole("button", { name: t("login.signIn") }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(t("errors.invalid_credentials"));
  await expectSpanish(page, "/login with an error");
});

for (const role of roles as readonly Role[]) {
  test.describe(`as ${role}`, () => {
    test.afterEach(async ({ page }) => {
      // Leave the shared demo account in English, as the other specs expect it.
      await page.request.post("/api/auth/locale", { data: { locale: "en" }, headers: SAME_ORIGIN });
    });

    test("every screen of the role, and the menu", async ({ page }) => {
      test.setTimeout(600_000);
      await signInSpanish(page, role);
      for (const screen of screens.filter((s) => can(role, s.permission))) {
        await page.goto(screen.href);
        await settled(page);
        await expectSpanish(page, `${screen.href} as ${role}`);
      }
      await page
        .getByRole("navigation", { name: t("nav.label") })
        .getByRole("button", { name: t("nav.menu") })
        .click();
      await expectSpanish(page, `the menu as ${role}`);
    });

    test("a ticket, a checked-in ticket, its wristband and a name search", async ({ page }) => {
      await signInSpanish(page, role);
      for (const path of [
        `/tickets/${encodeURIComponent(fixture.activeTicket)}`,
        `/tickets/${encodeURIComponent(fixture.usedTicket)}`,
        `/wristbands/${encodeURIComponent(fixture.wristband)}`,
        `/search?q=garcia`,
      ]) {
        await page.goto(path);
        await settled(page);
        await expect(page.getByTestId("verdict").or(page.getByTestId("verdict-badge")).first()).toBeVisible();
        await expectSpanish(page, `${path} as ${role}`);
      }
    });

    if (can(role, "terminals.view")) {
      test("a terminal's page", async ({ page }) => {
        await signInSpanish(page, role);
        await page.goto("/terminals/bar-01");
        await expect(page.getByTestId("terminal-state")).toBeVisible({ timeout: 60_000 });
        await settled(page);
        await expectSpanish(page, `/terminals/bar-01 as ${role}`);
      });
    }

    if (can(role, "topups.create")) {
      test("the desk with a wristband loaded and a top-up to confirm", async ({ page }) => {
        await signInSpanish(page, role);
        await page.goto("/desk");
        await page.getByLabel(t("deskName.label")).fill("Mostrador E2E");
        await page.getByRole("button", { name: t("deskName.use") }).click();
        await page.getByLabel(t("desk.wristbandCode")).fill(fixture.wristband);
        await page.getByRole("button", { name: t("desk.load") }).click();
        await expect(page.getByTestId("bonus-amount")).toBeVisible();
        await expectSpanish(page, `/desk with a wristband as ${role}`);
      });
    }
  });
}
