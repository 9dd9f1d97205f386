import { expect, type Page, test } from "@playwright/test";
import { advanceClock, openScreen, SHARED_SANDBOX, signIn, syncNow, waitForFirstSync } from "./support";

/**
 * Right now on the overview (issue 27) against the sandbox: the panel comes first, with its
 * figures, its age ticking, and it turns stale (with the reason, in words) once its figures are
 * older than 90 s. The browser's clock is moved with Playwright's page.clock: no wall-clock waits.
 */

test.describe.configure({ lock: SHARED_SANDBOX, timeout: 300_000 });

const SHOTS = ".test-results";

const panelOf = (page: Page) => page.getByRole("region", { name: "Right now" });

async function overviewWithClock(page: Page) {
  // The browser's fake clock starts at its own time and flows with it until moved (the console's
  // pages add the sandbox clock's offset to it).
  await page.clock.install();
  await signIn(page, "manager");
  await waitForFirstSync(page);
  await openScreen(page, "Overview");
  const panel = panelOf(page);
  await expect(panel).toBeVisible({ timeout: 60_000 });
  await expect(panel.getByTestId("right-now-as-of")).toHaveText(/as of \d\d:\d\d:\d\d/, { timeout: 60_000 });
  return panel;
}

test("the overview opens with right now: its figures, paid and promo apart, and its age", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  const panel = await overviewWithClock(page);
  // First thing on the screen: before the day's totals.
  const panelTop = (await panel.boundingBox())!.y;
  const dayTotalTop = (await page.getByTestId("day-total").boundingBox())!.y;
  expect(panelTop).toBeLessThan(dayTotalTop);

  await expect(panel.getByTestId("rn-sales-total")).toHaveText(/€/);
  await expect(panel.getByRole("figure", { name: /Sales per minute/ })).toBeVisible();
  await expect(panel.getByTestId("rn-topups-paid")).toHaveText(/€/);
  await expect(panel.getByTestId("rn-topups-promo")).toHaveText(/€/);
  await expect(panel.getByTestId("rn-entries-allowed")).toHaveText(/^\d[\d,]*$/);
  await expect(panel.getByTestId("rn-terminals-count")).toHaveText(/^\d+$/);
  await expect(panel.getByTestId("rn-alerts-count")).toHaveText(/^\d+$/);
  await expect(panel.getByRole("link", { name: "See the terminals" })).toHaveAttribute("href", "/terminals");
  await expect(panel.getByRole("link", { name: "See the alerts" })).toHaveAttribute("href", "/alerts");
  // The day's tiles: paid top-ups and promo credit, never one sum.
  await expect(page.getByTestId("day-topups-paid")).toBeVisible();
  await expect(page.getByTestId("day-promo")).toBeVisible();

  // The age ticks: "· N s ago" moves on by itself as the clock does.
  const age = panel.getByTestId("data-age");
  await expect(age).toHaveText(/· \d+ s ago/);
  const seconds = async () => Number((await age.textContent())?.match(/(\d+) s ago/)?.[1]);
  // No refresh meanwhile (a push may bring newer figures at any moment): the same figures, 5 s older.
  await page.route(/\/api\/live\//, (route) => route.abort("internetdisconnected"));
  const before = await seconds();
  await page.clock.fastForward(5_000);
  await expect.poll(seconds, { timeout: 5_000 }).toBeGreaterThanOrEqual(before + 5);
  await expect(panel).toHaveAttribute("data-stale", "false");
  await page.unroute(/\/api\/live\//);

  await page.screenshot({ path: `${SHOTS}/right-now-desktop.png`, fullPage: false });
  await page.setViewportSize({ width: 375, height: 900 });
  await expect(panel.getByTestId("rn-sales-total")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/right-now-phone.png`, fullPage: true });
});

test("staleness appears when sync stops: past 90 s the panels turn stale and say why", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  const panel = await overviewWithClock(page);
  await expect(panel).toHaveAttribute("data-stale", "false");
  await expect(panel.getByTestId("stale")).toHaveCount(0);

  // From here the console answers nothing new: every live read fails, as when the network is gone.
  await page.route(/\/api\/live\//, (route) => route.abort("internetdisconnected"));
  // The browser's clock 95 s on: the figures it holds are now older than 90 s.
  await page.clock.fastForward(95_000);

  const stale = panel.getByTestId("stale");
  await expect(stale).toBeVisible({ timeout: 5_000 });
  await expect(stale).toHaveText(/^Stale: /);
  await expect(panel).toHaveAttribute("data-stale", "true");
  await expect(panel.getByTestId("data-age")).toHaveText(/· (9[5-9]|1\d\d) s ago/);
  // The refreshes that failed are named (after the query's retry), in words, not by colour alone.
  await expect(stale).toHaveAttribute("data-reasons", /refresh_failing/, { timeout: 30_000 });
  await expect(stale).toContainText("the console cannot be reached");
  // The overview's own "as of" line turns stale too.
  const overviewLine = page.locator("[data-stale]").filter({ has: page.getByTestId("as-of") });
  await expect(overviewLine).toHaveAttribute("data-stale", "true");
  await page.screenshot({ path: `${SHOTS}/right-now-stale.png`, fullPage: false });

  // The console reachable again: the next refresh brings fresh figures and the mark goes.
  // The sandbox's clock catches up with the browser's (95 s on) and a cycle mirrors what is new.
  await page.unroute(/\/api\/live\//);
  await advanceClock(95);
  await syncNow();
  await page.clock.fastForward(31_000);
  await expect(panel.getByTestId("stale")).toHaveCount(0, { timeout: 30_000 });
});
