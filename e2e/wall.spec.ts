import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { CONSOLE_ORIGIN, expectNoViolations, SHARED_SANDBOX, signIn, waitForFirstSync } from "./support";

/**
 * The wall (issue 27): a manager issues a wall on the users screen; a TV opens its link once and
 * shows today's figures, dark, with nothing to scroll at 1920×1080 and 3840×2160; the wall's session
 * opens no other screen and no lookup or money action; it says "reconnecting" and keeps its figures
 * when the network goes; revoking the wall ends its session at once. And the dark theme: chosen in
 * the navigation, it is kept with the account.
 */

/** Where the wall's screenshots go (WALL_SHOTS, else the test results). */
const SHOTS = process.env.WALL_SHOTS ?? ".test-results/wall";

test.describe.configure({ lock: SHARED_SANDBOX, timeout: 300_000 });

/** The page fits its screen: nothing to scroll, down or across. */
async function expectNoScrolling(page: Page, where: string) {
  const size = await page.evaluate(() => ({
    scrollHeight: document.documentElement.scrollHeight,
    innerHeight: window.innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(size.scrollHeight, `${where}: ${JSON.stringify(size)}`).toBeLessThanOrEqual(size.innerHeight);
  expect(size.scrollWidth, `${where}: ${JSON.stringify(size)}`).toBeLessThanOrEqual(size.innerWidth);
}

/** Every region of the wall shows all it holds: nothing cut off at the bottom or the side. */
async function expectNothingClipped(page: Page, where: string) {
  const regions = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("[data-wall-region]")].map((r) => ({
      region: r.dataset.wallRegion,
      scrollHeight: r.scrollHeight,
      clientHeight: r.clientHeight,
      scrollWidth: r.scrollWidth,
      clientWidth: r.clientWidth,
    })),
  );
  expect(regions.length, where).toBe(2);
  for (const r of regions) {
    expect(r.scrollHeight, `${where}: ${JSON.stringify(r)}`).toBeLessThanOrEqual(r.clientHeight + 1);
    expect(r.scrollWidth, `${where}: ${JSON.stringify(r)}`).toBeLessThanOrEqual(r.clientWidth + 1);
  }
}

/** The lightness (0–1) of a computed colour: lab(), oklch() or rgb(). */
function lightness(color: string): number {
  const lab = color.match(/^lab\(([\d.]+)/);
  if (lab) return Number(lab[1]) / 100;
  const ok = color.match(/^oklch\(([\d.]+)(%?)/);
  if (ok) return Number(ok[1]) / (ok[2] ? 100 : 1);
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

async function wallReady(wall: Page) {
  await expect(wall.getByTestId("wall-sales")).toBeVisible({ timeout: 60_000 });
  await expect(wall.getByTestId("right-now")).toBeVisible();
  for (const figure of await wall.getByRole("figure").all())
    await expect(figure.locator("svg").first()).toBeVisible();
  await expect(wall.getByTestId("wall-status")).toHaveText("Live");
}

test("a wall: issued by a manager, opened on a TV, read-only, fits 1080p and 4K, reconnects, revoked at once", async ({
  browser,
  page,
}) => {
  await signIn(page, "manager");
  await waitForFirstSync(page);
  await page.goto("/users");
  await page.getByLabel("Name of the new wall (where it hangs)").fill("E2E bar tent");
  await page.getByRole("button", { name: "Issue a wall link" }).click();
  const link = (await page.getByTestId("wall-link").textContent()) ?? "";
  expect(link).toMatch(new RegExp(`^${CONSOLE_ORIGIN}/wall/connect#[A-Za-z0-9_-]{43}$`));
  await expectNoViolations(page, "/users with a wall link shown");

  const tv = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const wall = await tv.newPage();
  await wall.goto(link);
  await expect(wall).toHaveURL(`${CONSOLE_ORIGIN}/wall`);
  await wallReady(wall);
  // The token is gone from the address bar; the wall is dark whatever the TV's preference.
  expect(wall.url()).not.toContain("#");
  const wallBackground = await wall
    .locator("[data-wall]")
    .evaluate((e) => getComputedStyle(e).backgroundColor);
  expect(lightness(wallBackground), wallBackground).toBeLessThan(0.3);

  mkdirSync(SHOTS, { recursive: true });
  await wall.screenshot({ path: join(SHOTS, "wall-1080.png") });
  await expectNoScrolling(wall, "1920×1080");
  await expectNothingClipped(wall, "1920×1080");
  await expectNoViolations(wall, "/wall at 1920×1080");
  await wall.setViewportSize({ width: 3840, height: 2160 });
  await wallReady(wall);
  await wall.screenshot({ path: join(SHOTS, "wall-2160.png") });
  await expectNoScrolling(wall, "3840×2160");
  await expectNothingClipped(wall, "3840×2160");
  await expectNoViolations(wall, "/wall at 3840×2160");
  await wall.setViewportSize({ width: 1920, height: 1080 });

  // Read-only: every screen of the console sends it back to the wall; lookups and money are refused.
  for (const path of ["/", "/search", "/wristbands", "/desk", "/users", "/reconciliation"]) {
    await wall.goto(path);
    await expect(wall, path).toHaveURL(`${CONSOLE_ORIGIN}/wall`);
  }
  expect((await wall.request.get("/api/tickets?q=a")).status()).toBe(403);
  expect((await wall.request.get("/api/staff/search?q=garcia")).status()).toBe(403);
  expect((await wall.request.get("/api/wristbands/ABC123")).status()).toBe(403);
  const topup = await wall.request.post("/api/desk/topups", {
    headers: { origin: CONSOLE_ORIGIN },
    data: { wristband: "x", amount: 1000 },
  });
  expect(topup.status()).toBe(403);
  expect((await wall.request.get("/api/wall/session")).status()).toBe(200);
  // Opened directly (after a reboot), the server paints the whole page dark from the first frame.
  await wall.goto("/wall");
  await expect(wall.locator("html")).toHaveClass(/dark/);
  await wallReady(wall);

  // The network goes: "reconnecting", and the last figures stay with their age. They are read once
  // the wall knows it is cut off: a sale pushed just before the network went may be among them.
  await tv.setOffline(true);
  await expect(wall.getByTestId("wall-status")).toHaveText("Reconnecting…");
  const sales = wall.getByTestId("wall-sales");
  await expect(sales).toHaveText(/^€[\d,]+\.\d\d$/);
  const kept = await sales.textContent();
  await expect(wall.getByTestId("wall-age")).toHaveText(/Figures as of \d\d:\d\d:\d\d · \d+ s ago/);
  await expect(sales).toHaveText(kept ?? "");
  await expectNoViolations(wall, "/wall reconnecting");
  await tv.setOffline(false);
  await expect(wall.getByTestId("wall-status")).toHaveText("Live", { timeout: 60_000 });

  // Revoked on the users screen: the wall's session ends at once.
  await page.reload();
  await page.getByRole("button", { name: "Revoke E2E bar tent" }).click();
  await expect(page.getByRole("cell", { name: /revoked by manager/ }).first()).toBeVisible();
  expect((await wall.request.get("/api/wall/session")).status()).toBe(401);
  await wall.reload();
  await expect(wall).toHaveURL(/\/login/);
  await tv.close();
});

/** Picks a theme in the navigation and waits until the console has kept it. */
async function chooseTheme(page: Page, theme: "system" | "light" | "dark") {
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/theme") && r.ok());
  await page.getByLabel("Theme").selectOption(theme);
  await saved;
}

test("the dark theme: chosen in the navigation, applied at once, kept with the account", async ({
  browser,
  page,
}) => {
  await signIn(page, "manager");
  const html = page.locator("html");
  await expect(html).not.toHaveClass(/dark|light/);
  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(lightness(light), light).toBeGreaterThan(0.9);
  await chooseTheme(page, "dark");
  await expect(html).toHaveClass(/dark/);
  await page.reload();
  await expect(html).toHaveClass(/dark/);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(lightness(background), background).toBeLessThan(0.3);
  // What the overview looks like dark, on a desktop and on a phone (375 px), for the eye.
  await expect(page.getByTestId("as-of").first()).toBeVisible({ timeout: 60_000 });
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, "console-dark.png") });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: join(SHOTS, "console-dark-375.png") });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Another browser (light preference): the account's choice applies from the first paint.
  const other = await browser.newContext({ colorScheme: "light" });
  const second = await other.newPage();
  await signIn(second, "manager");
  await expect(second.locator("html")).toHaveClass(/dark/);
  await other.close();

  // Back to the system's theme (the other specs see the console as the system paints it).
  await chooseTheme(page, "system");
  await expect(html).not.toHaveClass(/dark|light/);
  await page.reload();
  await expect(html).not.toHaveClass(/dark|light/);
});
