import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { screens } from "../lib/shared/permissions";
import { E2E_DATA_DIR } from "../playwright.config";
import { dashboardKey, SHARED_SANDBOX, signIn } from "./support";

// The demo accounts and the sandbox clock: one such spec at a time (e2e/support.ts).
test.describe.configure({ lock: SHARED_SANDBOX });

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

test("the API key and the session secret reach no browser response", async ({ page }) => {
  test.setTimeout(180_000);
  const key = dashboardKey();
  const secret = readFileSync(join(E2E_DATA_DIR, "session-secret"), "utf8").trim();
  const bodies: { url: string; body: string }[] = [];
  page.on("response", async (response) => {
    try {
      bodies.push({ url: response.url(), body: await response.text() });
    } catch {
      // redirects have no body
    }
  });
  await signIn(page, "manager");
  for (const screen of screens) {
    await page.goto(screen.href);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  expect(bodies.length).toBeGreaterThan(screens.length);
  for (const { url, body } of bodies) {
    expect(body.includes(key), `${url} contains the API key`).toBe(false);
    expect(body.includes(secret), `${url} contains the session secret`).toBe(false);
  }
});

test("no API key is in the browser bundles (.next/static)", () => {
  const key = dashboardKey();
  const bundle = files(".next/static");
  expect(bundle.length).toBeGreaterThan(0);
  for (const file of bundle) {
    const text = readFileSync(file, "utf8");
    expect(text.includes(key), `${file} contains the API key`).toBe(false);
    expect(/eak_(live|test)_[A-Za-z0-9_-]{43}/.test(text), `${file} contains an API key`).toBe(false);
  }
});
