import { expect, test } from "@playwright/test";
import { openScreen, SHARED_SANDBOX, signIn } from "./support";

// The demo accounts and the sandbox clock: one such spec at a time (e2e/support.ts).
test.describe.configure({ lock: SHARED_SANDBOX });

test("the connection screen shows the key's environment, scopes and the sync status", async ({ page }) => {
  await signIn(page, "staff");
  await openScreen(page, "Connection");
  await expect(page.getByTestId("environment-badge")).toHaveText("test");
  const scopes = page.getByRole("list", { name: "Scopes" });
  for (const scope of ["event.read", "tickets.read", "cashless.read", "cashless.write", "reports.read"]) {
    await expect(scopes.getByText(scope, { exact: true })).toBeVisible();
  }
  await expect(page.getByText("none (the whole event)")).toBeVisible();
  const table = page.getByRole("table", { name: "Sync status per resource" });
  await expect(table.getByRole("rowheader", { name: "sales", exact: true })).toBeVisible();
  // Resources are named in words, not by the worker's ids.
  await expect(table.getByRole("rowheader", { name: "review queue", exact: true })).toBeVisible();
  await expect(table.getByRole("rowheader", { name: "review_wristbands" })).toHaveCount(0);
  // The worker mirrors the sandbox within a cycle or two.
  await expect(page.getByText(/Worker .*: \d+ cycles/)).toBeVisible({ timeout: 60_000 });
});
