import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import { screens } from "../lib/permissions";
import { E2E_DATA_DIR } from "../playwright.config";

export const LOGINS = {
  manager: { username: "manager", password: "manager-demo-pass" },
  supervisor: { username: "supervisor", password: "supervisor-demo-pass" },
  staff: { username: "staff", password: "staff-demo-pass" },
} as const;

export async function signIn(page: Page, role: keyof typeof LOGINS) {
  await page.goto("/login");
  await page.getByLabel("Username").fill(LOGINS[role].username);
  await page.getByLabel("Password").fill(LOGINS[role].password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(`Signed in as ${LOGINS[role].username}`)).toBeVisible();
}

/**
 * Opens a screen from the navigation and waits until the browser is on it, so that nothing the
 * previous screen still shows (its "data as of", a same-named control) is mistaken for the new one.
 */
export async function openScreen(page: Page, label: (typeof screens)[number]["label"]) {
  const screen = screens.find((s) => s.label === label)!;
  await page
    .getByRole("navigation", { name: "Screens" })
    .getByRole("link", { name: label, exact: true })
    .click();
  await expect(page).toHaveURL((url) => url.pathname === screen.href);
}

/** The Integration API key `npm start` provisioned for the dashboard (it must never reach a browser). */
export function dashboardKey(): string {
  return (JSON.parse(readFileSync(join(E2E_DATA_DIR, "dashboard-key.json"), "utf8")) as { key: string }).key;
}

/**
 * Waits until the sync worker has finished a whole cycle: the first mirror of the sandbox takes a
 * minute or two, because the worker keeps 40 % of the key's read quota for interactive lookups.
 */
export async function waitForFirstSync(page: Page, timeoutMs = 240_000) {
  await expect
    .poll(
      async () => {
        const res = await page.request.get("/api/connection");
        if (!res.ok()) return 0;
        const body = (await res.json()) as { sync: { worker: { cycles: number } | null } };
        return body.sync.worker?.cycles ?? 0;
      },
      { timeout: timeoutMs, intervals: [2_000] },
    )
    .toBeGreaterThan(0);
}
