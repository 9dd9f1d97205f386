import { expect, type Page, test } from "@playwright/test";
import { iPhone } from "./phone-camera";
import {
  runCode,
  runWord,
  SHARED_SANDBOX,
  sandboxApi,
  sandboxControl,
  sandboxNow,
  signIn,
  ticketFixtures,
  waitForFirstSync,
  waitUntilNameFound,
} from "./support";

// The demo accounts and the sandbox clock: one such spec at a time (e2e/support.ts).
test.describe.configure({ lock: SHARED_SANDBOX });

/**
 * The phone layout holds for any data (issue 23), at 375 px: a 200-character name without a
 * space and a 100-character device id wrap instead of widening the page, and text with a
 * right-to-left override (U+202E) is shown with the control escaped on every screen that shows
 * it: name search results, the ticket, terminals, sales and the night.
 */

test.use({ ...iPhone, viewport: { width: 375, height: 812 } });

const RUN = runCode("AD");
const WORD = runWord();
/** One word of 200 letters, starting with this run's word so the name search can find it. */
const LONG_NAME = `${WORD}${"w".repeat(200 - WORD.length)}`;
const RTL_NAME = `Ana \u202Eztrep ${WORD}`;
/** 100 characters, a right-to-left override among them, no space. */
const DEVICE = `rtl\u202E${RUN.toLowerCase()}${"x".repeat(100 - 4 - RUN.length)}`;

let longCode = "";
let rtlCode = "";

test.beforeAll(async () => {
  expect(DEVICE).toHaveLength(100);
  const fixtures = await ticketFixtures("e2e any data fixtures", RUN);
  longCode = await fixtures.freshTicket("LONG", LONG_NAME);
  rtlCode = await fixtures.freshTicket("RTL", RTL_NAME);
  // A terminal with that id syncs two late sales: one of today, one of the last night that ended.
  const days = (
    await sandboxApi<{ data: { starts_at: string; ends_at: string }[] }>(fixtures.key, "/v1/days")
  ).body.data;
  const now = (await sandboxNow()).getTime();
  const ended = days.filter((d) => Date.parse(d.ends_at) <= now).at(-1)!;
  for (const occurredAt of [new Date(now - 60_000), new Date(Date.parse(ended.starts_at) + 3600_000)]) {
    await sandboxControl("/simulator/late-sale", {
      occurred_at: occurredAt.toISOString(),
      device_id: DEVICE,
      unit_price: 700,
    });
  }
});

/** The page is no wider than the screen, and shows no raw right-to-left override. */
async function holds(page: Page, where: string) {
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("main [aria-busy=true]")).toHaveCount(0, { timeout: 30_000 });
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(sideways, `${where} scrolls sideways by ${sideways} px`).toBeLessThanOrEqual(0);
  await expect(page.getByRole("main"), `${where} shows a raw U+202E`).not.toContainText("\u202E");
}

test("a 200-character name wraps on the ticket page and in the name search; a right-to-left override is escaped", async ({
  page,
}) => {
  test.setTimeout(420_000);
  await signIn(page, "staff");
  await page.goto(`/tickets/${longCode}`);
  await expect(page.getByTestId("verdict")).toBeVisible();
  await holds(page, "the ticket of a 200-character name");

  await waitUntilNameFound(page, WORD.toLowerCase());
  await page.goto(`/search?q=${encodeURIComponent(WORD.toLowerCase())}`);
  const results = page.getByRole("list", { name: /Attendees named/ });
  await expect(results.getByRole("listitem").filter({ hasText: longCode })).toBeVisible();
  await expect(results.getByRole("listitem").filter({ hasText: rtlCode })).toContainText("Ana ⟦U+202E⟧ztrep");
  await expect(results.getByTestId("verdict-badge").first()).toBeVisible();
  await holds(page, "name search results with a 200-character name");

  await page.goto(`/tickets/${rtlCode}`);
  await expect(page.getByText(`Ana ⟦U+202E⟧ztrep ${WORD}`)).toBeVisible();
  await holds(page, "the ticket of a name with a right-to-left override");
});

test("a 100-character device id with a right-to-left override wraps on terminals, sales and the night", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page, "manager");
  await waitForFirstSync(page);
  const detail = `/api/terminals/${encodeURIComponent(DEVICE)}`;
  await expect
    .poll(
      async () => {
        const res = await page.request.get(detail);
        return res.ok() ? ((await res.json()) as { terminal: unknown }).terminal !== null : false;
      },
      { timeout: 180_000, intervals: [3_000] },
    )
    .toBe(true);
  const shown = `rtl⟦U+202E⟧${RUN.toLowerCase()}`;
  await page.goto(`/terminals/${encodeURIComponent(DEVICE)}`);
  await expect(page.getByTestId("terminal-state")).toBeVisible();
  await expect(page.getByRole("main").getByRole("heading", { level: 2 }).first()).toContainText(shown);
  await holds(page, "the page of a terminal with a 100-character id");
  for (const path of ["/terminals", "/sales", "/reconciliation"]) {
    await page.goto(path);
    await expect(page.getByTestId("as-of").or(page.getByTestId("terminal-counts")).first()).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.getByRole("main")).toContainText(shown, { timeout: 60_000 });
    await holds(page, path);
  }
});
