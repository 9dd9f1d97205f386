import { expect, test } from "@playwright/test";
import { screens } from "../lib/shared/permissions";
import { codeVideo, iPhone, liveTracks, phoneWithCamera } from "./phone-camera";
import {
  runCode,
  runWord,
  SHARED_SANDBOX,
  sandboxApi,
  signIn,
  ticketFixtures,
  waitUntilNameFound,
} from "./support";

// The demo accounts and the sandbox clock: one such spec at a time (e2e/support.ts).
test.describe.configure({ lock: SHARED_SANDBOX });

/**
 * Staff at the gate (issue 14), on a phone: an iPhone 13's profile (390×844, touch, mobile) in
 * Debian's Chromium. Search by a typed code, scan a ticket's QR code and a wristband's Code 128
 * with Chromium's fake camera (fed with a video of the code generated here), find a ticket by a
 * name typed without accents, check in, and the redirect of a page the role may not open.
 */

test.use(iPhone);

const RUN = runCode("E2E");
const RUN_WORD = runWord();
const SEARCH = "Find a code or a name";
let fixtures: Awaited<ReturnType<typeof ticketFixtures>>;

const api = <T>(path: string, init: RequestInit = {}) => sandboxApi<T>(fixtures.key, path, init);
const freshTicket = (suffix: string, name?: string) => fixtures.freshTicket(suffix, name);

test.beforeAll(async () => {
  fixtures = await ticketFixtures("e2e gate fixtures", RUN);
});

// ── the flows ────────────────────────────────────────────────────────────────────────────────

test("staff land on their search; the search box comes first and the menu button opens the screens", async ({
  page,
}) => {
  await signIn(page, "staff");
  await expect(page).toHaveURL(/\/search$/);
  await expect(page.getByRole("heading", { level: 1, name: "Search" })).toBeVisible();
  const search = page.getByLabel(SEARCH);
  const heading = page.getByRole("heading", { level: 1 });
  expect((await search.boundingBox())!.y).toBeLessThan((await heading.boundingBox())!.y);

  const nav = page.getByRole("navigation", { name: "Screens" });
  const menu = nav.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(nav.getByRole("link", { name: "Tickets" })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(nav.getByRole("link", { name: "Search" })).toBeFocused();
  await expect(nav.getByRole("link", { name: "Tickets" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Overview" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  await expect(nav.getByRole("link", { name: "Tickets" })).toBeHidden();
  // A screen chosen from the menu closes it.
  await menu.click();
  await nav.getByRole("link", { name: "Tickets" }).click();
  await expect(page).toHaveURL(/\/tickets$/);
  await expect(menu).toHaveAttribute("aria-expanded", "false");
});

test("every control of the staff screens is a 44 px target, and nothing scrolls sideways", async ({
  page,
}) => {
  const code = await freshTicket("FIT");
  await signIn(page, "staff");
  const staffScreens = screens.filter((s) =>
    ["/search", "/wristbands", "/tickets", "/scans", "/connection"].includes(s.href),
  );
  for (const path of [...staffScreens.map((s) => s.href), `/tickets/${code}`]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.locator("main [aria-busy=true]")).toHaveCount(0, { timeout: 30_000 });
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(sideways, `${path} scrolls sideways by ${sideways} px`).toBeLessThanOrEqual(0);
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("button, input, select, nav a")]
        .filter((el) => el.offsetParent !== null)
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.height < 44 - 0.5)
        .map(
          ({ el, box }) =>
            `${el.tagName.toLowerCase()} "${el.textContent?.trim() || el.getAttribute("aria-label") || el.id}" ${box.height}px`,
        ),
    );
    expect(small, `targets under 44 px on ${path}`).toEqual([]);
  }
  // The ticket list is a list of cards on a phone, not a table squeezed into its width.
  await page.goto("/tickets");
  await expect(page.getByRole("list", { name: "Tickets" }).getByRole("listitem").first()).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
});

test("search by a typed code opens the ticket", async ({ page }) => {
  const code = await freshTicket("TYPED");
  await signIn(page, "staff");
  await page.getByLabel(SEARCH).fill(code);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${code}$`));
  await expect(page.getByRole("heading", { name: `Ticket ${code}` })).toBeVisible();
});

test("scan a ticket's QR code with the camera: the ticket opens at once, with a beep and a buzz, and the camera stops", async () => {
  const code = await freshTicket("QR");
  const video = await codeVideo(test.info().outputPath("ticket-qr.y4m"), code, "QRCode");
  const { browser, page } = await phoneWithCamera(video);
  try {
    await page.getByRole("button", { name: "Scan" }).click();
    // The code may be read from the first frame: the dialog can be gone before it is looked for.
    const opened = page.getByRole("heading", { name: `Ticket ${code}` });
    await expect(page.getByRole("dialog", { name: "Scan a ticket or wristband" }).or(opened)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/tickets/${code}$`), { timeout: 30_000 });
    await expect(page.getByRole("heading", { name: `Ticket ${code}` })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __beeps: number }).__beeps)).toBe(1);
    expect(
      await page.evaluate(() => (window as unknown as { __vibrations: unknown[] }).__vibrations),
    ).toEqual([80]);
    expect(await liveTracks(page)).toBe(0);
  } finally {
    await browser.close();
  }
});

test("check in with the wristband's code scanned (Code 128) on the ticket's check-in form", async () => {
  const code = await freshTicket("SCANIN");
  const nfc = `${RUN}-NFC-SCAN`;
  const video = await codeVideo(test.info().outputPath("wristband-code128.y4m"), nfc, "Code128");
  const { browser, page } = await phoneWithCamera(video);
  try {
    await page.getByLabel(SEARCH).fill(code);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByTestId("status")).toHaveText("active");
    await page.getByRole("button", { name: "Scan the wristband code" }).click();
    const field = page.getByLabel("Wristband NFC code (enter or scan)");
    // The code may be read from the first frame: the dialog can be gone before it is looked for.
    const dialog = page.getByRole("dialog", { name: "Scan the wristband" });
    await expect
      .poll(async () => (await dialog.isVisible()) || (await field.inputValue()) === nfc)
      .toBe(true);
    await expect(field).toHaveValue(nfc, { timeout: 30_000 });
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.getByRole("button", { name: "Check in" }).click();
    await expect(page.getByTestId("status")).toHaveText("used");
    await expect(page.getByRole("link", { name: nfc })).toBeVisible();
    expect(
      (await api<{ status: string; wristband: { nfc: string } }>(`/v1/tickets/${code}`)).body,
    ).toMatchObject({
      status: "used",
      wristband: { nfc },
    });
  } finally {
    await browser.close();
  }
});

test("closing the scanner or hiding the page stops the camera", async () => {
  const { browser, page } = await phoneWithCamera(null);
  try {
    const dialog = page.getByRole("dialog", { name: "Scan a ticket or wristband" });
    await page.getByRole("button", { name: "Scan" }).click();
    await expect(dialog.getByText("Hold the code inside the frame.")).toBeVisible({ timeout: 30_000 });
    expect(await liveTracks(page)).toBe(1);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toHaveCount(0);
    expect(await liveTracks(page)).toBe(0);
    await expect(page.getByRole("button", { name: "Scan" })).toBeFocused();

    await page.getByRole("button", { name: "Scan" }).click();
    await expect(dialog.getByText("Hold the code inside the frame.")).toBeVisible({ timeout: 30_000 });
    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await expect(dialog).toHaveCount(0);
    expect(await liveTracks(page)).toBe(0);
  } finally {
    await browser.close();
  }
});

test("a refused camera and a missing one are said plainly, and the typed search still works", async ({
  page,
}) => {
  const code = await freshTicket("NOCAM");
  await page.addInitScript(() => {
    const reasons = ["NotAllowedError", "NotFoundError"];
    navigator.mediaDevices.getUserMedia = async () => {
      throw new DOMException("denied by the test", reasons.shift() ?? "NotFoundError");
    };
  });
  await signIn(page, "staff");
  const dialog = page.getByRole("dialog", { name: "Scan a ticket or wristband" });
  await page.getByRole("button", { name: "Scan" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    "Camera access was refused. Allow the camera for this site in the browser's settings, or type the code.",
  );
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await page.getByRole("button", { name: "Scan" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    "No camera was found on this device. Type the code instead.",
  );
  await dialog.getByRole("button", { name: "Close" }).click();
  await page.getByLabel(SEARCH).fill(code);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByRole("heading", { name: `Ticket ${code}` })).toBeVisible();
});

test("find a ticket by its attendee's name typed without accents", async ({ page }) => {
  test.setTimeout(420_000);
  const name = `Inés Álvarez-Dubois ${RUN_WORD}`;
  const code = await freshTicket("NAME", name);
  await signIn(page, "staff");
  const typed = `alvarez ${RUN_WORD.toLowerCase()} ines`;
  await waitUntilNameFound(page, typed);
  await page.getByLabel(SEARCH).fill(typed);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/\/search\?q=/);
  const results = page.getByRole("list", { name: new RegExp(`Attendees named “${typed}”`) });
  const card = results.getByRole("listitem").filter({ hasText: code });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("active");
  await expect(card).toContainText(fixtures.ticketTypeName);
  await card.getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { name: `Ticket ${code}` })).toBeVisible();
});

test("a screen the role may not open is not linked, and sends it home with a short notice", async ({
  page,
}) => {
  await signIn(page, "staff");
  const nav = page.getByRole("navigation", { name: "Screens" });
  await nav.getByRole("button", { name: "Menu" }).click();
  await expect(nav.getByRole("link", { name: "Night reconciliation" })).toHaveCount(0);
  await page.goto("/reconciliation");
  await expect(page).toHaveURL(/\/search\?denied=%2Freconciliation$/);
  const notice = page.getByRole("status").filter({ hasText: "not available for your role" });
  await expect(notice).toHaveText(/“Night reconciliation” is not available for your role/);
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(notice).toHaveCount(0);
  await expect(page).toHaveURL(/\/search$/);
});
