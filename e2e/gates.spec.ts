import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import type { Alert, AlertsView } from "../lib/shared/api/attention";
import { E2E_API_PORT, E2E_DATA_DIR } from "../playwright.config";
import { SHARED_SANDBOX, signIn, waitForFirstSync } from "./support";

/**
 * The gates (issue 28) against the sandbox: a manager sets a zone's capacity and sees the entries
 * and the gauge; a double swipe and an impossible walk injected through the simulator's sandbox
 * controls (written by the service's own write paths) raise their alerts within the sync's cycle
 * (10 s here), and each alert leads to its case with the evidence records.
 */

const API = `http://127.0.0.1:${E2E_API_PORT}`;

async function inject(kind: "double_swipe" | "impossible_walk") {
  const token = readFileSync(join(E2E_DATA_DIR, "api", "admin-token"), "utf8").trim();
  const res = await fetch(`${API}/admin/simulator/misuse/${kind}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: "{}",
  });
  expect(res.status, kind).toBe(201);
  return (await res.json()) as { subject: string };
}

async function alertOf(page: Page, kind: string, match: (a: Alert) => boolean) {
  let found: Alert | undefined;
  await expect
    .poll(
      async () => {
        const res = await page.request.get("/api/alerts");
        found = ((await res.json()) as AlertsView).alerts.find((a) => a.kind === kind && match(a));
        return found?.id;
      },
      { timeout: 60_000, intervals: [2_000] },
    )
    .toBeDefined();
  return found!;
}

test.describe.configure({ lock: SHARED_SANDBOX, timeout: 240_000 });

test("a manager sets a zone's capacity, sees entries and the gauge; a double swipe and an impossible walk raise alerts with their evidence", async ({
  page,
}) => {
  await signIn(page, "manager");
  await waitForFirstSync(page);

  await page.goto("/gates");
  await expect(page.getByTestId("no-exits-note")).toContainText("no exits");
  const zone = page.getByTestId("gates-zones").getByRole("listitem").filter({ hasText: "General Area" });
  await zone.getByLabel("Capacity of General Area").fill("50000");
  await zone.getByRole("button", { name: "Save capacity" }).click();
  await expect(zone.getByRole("status")).toHaveText("Capacity saved.");
  await expect(zone.getByTestId("zone-entered")).toContainText("of 50,000");
  await expect(
    zone.getByRole("meter", { name: "General Area: entered today against capacity" }),
  ).toBeAttached();
  await expect(page.getByRole("heading", { name: "Entries per 5 minutes" })).toBeVisible();
  await expect(page.getByTestId("unique-holders")).not.toHaveText("0");
  // The change is in the audit log.
  const audit = await page.request.get("/api/audit");
  expect(JSON.stringify(await audit.json())).toContain("gates.capacity");

  const swipe = await inject("double_swipe");
  const walk = await inject("impossible_walk");
  const swipeAlert = await alertOf(page, "double_swipe", (a) => a.figures.wristband_id === swipe.subject);
  const walkAlert = await alertOf(page, "impossible_walk", (a) => a.figures.holder === walk.subject);

  await page.goto("/alerts");
  await expect(page.getByText("Double swipe").first()).toBeVisible();
  await expect(page.getByText("Impossible walk between zones").first()).toBeVisible();

  for (const [alert, title] of [
    [swipeAlert, "Double swipe"],
    [walkAlert, "Impossible walk between zones"],
  ] as const) {
    await page.goto(alert.link);
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
    await expect(card).toHaveCount(1);
    await expect(card.getByText("Its alert is open")).toBeVisible();
    // Both records of the case, linked to their terminals.
    await expect(card.getByRole("table", { name: "Evidence" }).getByRole("row")).toHaveCount(3);
  }
  await page.screenshot({ path: ".test-results/gates-misuse-case.png", fullPage: true });

  // The screens as people see them, on a desktop and on a phone (375 px), for review.
  await page.goto("/gates");
  await expect(page.getByTestId("gates-zones")).toBeVisible();
  await page.screenshot({ path: ".test-results/gates-entries.png", fullPage: true });
  await page.goto("/gates/misuse");
  await expect(page.getByRole("heading", { name: "Misuse cases" })).toBeVisible();
  await page.screenshot({ path: ".test-results/gates-misuse.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/gates");
  await expect(page.getByTestId("gates-zones")).toBeVisible();
  await page.screenshot({ path: ".test-results/gates-entries-phone.png", fullPage: true });
  await page.goto("/gates/misuse");
  await expect(page.getByRole("heading", { name: "Misuse cases" })).toBeVisible();
  await page.screenshot({ path: ".test-results/gates-misuse-phone.png", fullPage: true });
});
