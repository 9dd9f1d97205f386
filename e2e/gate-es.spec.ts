import { expect, type Page, test } from "@playwright/test";
import { translatorFor } from "../lib/shared/i18n/messages";
import { BROWSER_LOCALE, codeVideo, iPhone, phoneWithCamera } from "./phone-camera";
import {
  runCode,
  runWord,
  SAME_ORIGIN,
  SHARED_SANDBOX,
  signIn,
  ticketFixtures,
  waitUntilNameFound,
} from "./support";

// The demo accounts and the sandbox clock: one such spec at a time (e2e/support.ts).
test.describe.configure({ lock: SHARED_SANDBOX });

/**
 * The gate's flows in Spanish (issue 14), on a phone whose browser asks for Spanish: the staff
 * account has not chosen a language, so the console follows the browser. Every word checked is the
 * Spanish message, and a few are checked literally, so that a screen left in English fails here.
 * Then the header's switcher: a choice kept with the account, over the browser's language.
 */

test.use({ ...iPhone, locale: BROWSER_LOCALE.es });

const t = translatorFor("es");
const RUN = runCode("ES");
const RUN_WORD = runWord();
let fixtures: Awaited<ReturnType<typeof ticketFixtures>>;
const freshTicket = (suffix: string, name = `Invitada ${suffix}`) => fixtures.freshTicket(suffix, name);

async function searchFor(page: Page, text: string) {
  await page.getByLabel(t("search.label")).fill(text);
  await page.getByRole("button", { name: t("search.submit"), exact: true }).click();
}

test.beforeAll(async () => {
  fixtures = await ticketFixtures("e2e gate fixtures (es)", RUN);
});

test("en español: la búsqueda es la pantalla de inicio y un código escrito abre la entrada", async ({
  page,
}) => {
  const code = await freshTicket("TECLEADO");
  await signIn(page, "staff", "es");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("heading", { level: 1, name: "Buscar" })).toBeVisible();
  await expect(page.getByLabel("Buscar un código o un nombre")).toBeVisible();
  await searchFor(page, code);
  await expect(page.getByRole("heading", { name: t("ticket.title", { code }) })).toBeVisible();
  await expect(page.getByTestId("status")).toHaveText("activa");
});

test("en español: escanear el QR de una entrada con la cámara la abre, y se hace check-in", async () => {
  const code = await freshTicket("QR");
  const video = await codeVideo(test.info().outputPath("ticket-qr-es.y4m"), code, "QRCode");
  const { browser, page } = await phoneWithCamera(video, "es");
  try {
    await page.getByRole("button", { name: t("scan.button") }).click();
    // The code may be read from the first frame: the dialog can be gone before it is looked for.
    const opened = page.getByRole("heading", { name: `Entrada ${code}` });
    await expect(page.getByRole("dialog", { name: t("search.scanTitle") }).or(opened)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/tickets/${code}$`), { timeout: 30_000 });
    await expect(page.getByRole("heading", { name: `Entrada ${code}` })).toBeVisible();
    await page.getByLabel(t("ticket.nfc")).fill(`${RUN}-NFC`);
    await page.getByRole("button", { name: t("ticket.checkIn") }).click();
    await expect(page.getByTestId("status")).toHaveText(t("status.used"));
  } finally {
    await browser.close();
  }
});

test("en español: una cámara denegada se explica en español y la búsqueda escrita sigue funcionando", async ({
  page,
}) => {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = async () => {
      throw new DOMException("denied by the test", "NotAllowedError");
    };
  });
  await signIn(page, "staff", "es");
  const dialog = page.getByRole("dialog", { name: t("search.scanTitle") });
  await page.getByRole("button", { name: t("scan.button") }).click();
  await expect(dialog.getByRole("alert")).toHaveText(t("camera.refused"));
  await dialog.getByRole("button", { name: t("scan.close") }).click();
  await expect(dialog).toHaveCount(0);
});

test("en español: se encuentra una entrada por el nombre escrito sin acentos", async ({ page }) => {
  test.setTimeout(420_000);
  const name = `Íñigo Núñez-Ortega ${RUN_WORD}`;
  const code = await freshTicket("NOMBRE", name);
  await signIn(page, "staff", "es");
  const typed = `nunez ${RUN_WORD.toLowerCase()} inigo`;
  await waitUntilNameFound(page, typed);
  await searchFor(page, typed);
  const results = page.getByRole("list", { name: t("search.resultsCaption", { text: typed }) });
  const card = results.getByRole("listitem").filter({ hasText: code });
  await expect(card).toContainText("activa");
  await card.getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { name: `Entrada ${code}` })).toBeVisible();
});

test("en español: una pantalla que el rol no puede abrir no aparece, y lleva al inicio con un aviso", async ({
  page,
}) => {
  await signIn(page, "staff", "es");
  const nav = page.getByRole("navigation", { name: "Pantallas" });
  await nav.getByRole("button", { name: "Menú" }).click();
  await expect(nav.getByRole("link", { name: "Cierre de noche" })).toHaveCount(0);
  await page.goto("/reconciliation");
  await expect(page).toHaveURL(/\/search\?denied=%2Freconciliation$/);
  const notice = page.getByRole("status").filter({ hasText: "no está disponible para tu rol" });
  await expect(notice).toHaveText(/«Cierre de noche» no está disponible para tu rol/);
  await notice.getByRole("button", { name: t("denied.dismiss") }).click();
  await expect(notice).toHaveCount(0);
});

test("the header's switcher keeps the language with the account, over the browser's", async ({ browser }) => {
  const en = translatorFor("en");
  // A Spanish browser: the supervisor's console starts in Spanish, then is switched to English.
  const spanish = await browser.newContext({ ...iPhone, locale: BROWSER_LOCALE.es });
  const page = await spanish.newPage();
  try {
    await signIn(page, "supervisor", "es");
    const nav = page.getByRole("navigation", { name: t("nav.label") });
    await nav.getByRole("button", { name: t("nav.menu") }).click();
    await nav.getByLabel(t("language.label")).selectOption("en");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("navigation", { name: en("nav.label") })).toBeVisible();
    // Signed out and in again, still in the Spanish browser: the account's English wins.
    await page.request.post("/api/auth/logout", { headers: SAME_ORIGIN });
    await signIn(page, "supervisor", "en");
    await expect(page.getByRole("navigation", { name: "Screens" })).toBeAttached();
    // A refused body is a clear error, and the choice is unchanged.
    const bad = await page.request.post("/api/auth/locale", {
      headers: { ...SAME_ORIGIN, "content-type": "application/json" },
      data: { locale: "fr" },
    });
    expect(bad.status()).toBe(400);
  } finally {
    // Leave the shared demo account following its browser again (other specs read it in English).
    await page.request.post("/api/auth/locale", {
      headers: { ...SAME_ORIGIN, "content-type": "application/json" },
      data: { locale: "en" },
    });
    await spanish.close();
  }
});
