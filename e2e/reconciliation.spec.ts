import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import type { NightReport } from "../lib/shared/api/night";
import { formatMoney } from "../lib/shared/format/money";
import { E2E_API_PORT, E2E_DATA_DIR } from "../playwright.config";
import { dashboardKey, openScreen, SHARED_SANDBOX, sandboxNow, signIn } from "./support";

/**
 * Night reconciliation (issue #7) against the sandbox: sign a closed night off, let a terminal sync
 * a late sale into it (the sandbox's `POST /admin/simulator/late-sale`), see the drift with its
 * lines, sign again; the screen equals GET /reports/sales-summary and the CSV equals the screen.
 */

const ORIGIN = `http://127.0.0.1:${E2E_API_PORT}`;

interface Summary {
  currency: string;
  sales: { count: number; total: number };
}

async function summary(dayId: string): Promise<Summary> {
  const res = await fetch(`${ORIGIN}/v1/reports/sales-summary?day_id=${dayId}`, {
    headers: { authorization: `Bearer ${dashboardKey()}` },
  });
  if (!res.ok) throw new Error(`summary: ${res.status} ${await res.text()}`);
  return (await res.json()) as Summary;
}

const plain = (s: string | null) => (s ?? "").replace(/[\u00a0\u202f]/g, " ").trim();
const money = (minor: number, currency: string) => plain(formatMoney(minor, currency));

async function report(page: Page, dayId?: string): Promise<NightReport> {
  const res = await page.request.get(`/api/reconciliation${dayId ? `?day_id=${dayId}` : ""}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as NightReport;
}

/** The screen's sales count and total equal the upstream summary of the night (polled: sync). */
async function expectEqualsSummary(page: Page, dayId: string) {
  await expect
    .poll(
      async () => {
        const s = await summary(dayId);
        const count = plain(await page.getByTestId("night-sales-count").textContent());
        const total = plain(await page.getByTestId("night-sales-total").textContent());
        return count === s.sales.count.toLocaleString("en-GB") && total === money(s.sales.total, s.currency);
      },
      { timeout: 90_000, intervals: [2_000] },
    )
    .toBe(true);
}

test.describe.configure({ lock: SHARED_SANDBOX, timeout: 300_000 });

test("sign a night off, see a late sale's drift with its lines, sign again; CSV and summary agree", async ({
  page,
}) => {
  await signIn(page, "supervisor");
  await openScreen(page, "Night reconciliation");
  await expect(page.getByTestId("as-of")).toHaveText(/Data as of \d\d:\d\d:\d\d/, { timeout: 120_000 });

  // A closed night: it has ended and the next one has started, so the day rule puts no new record
  // in it (the simulator sells around the clock, and a sale between two nights belongs to the
  // earlier one) — only a late terminal can.
  const { days } = await report(page);
  const now = (await sandboxNow()).getTime();
  const day = days.find(
    (d, i) => Date.parse(d.ends_at) <= now && Date.parse(days[i + 1]?.starts_at ?? "") <= now,
  )!;
  expect(day).toBeDefined();
  await page.getByRole("combobox", { name: /^Event day/ }).selectOption(day.id);
  await expect(page.getByTestId("night-window")).toContainText(day.name);
  await expect(page.getByTestId("checksum")).toContainText("Matches upstream", { timeout: 120_000 });
  const first = await report(page, day.id);
  expect(first.ended).toBe(true);
  const currency = first.event!.currency;
  await expectEqualsSummary(page, day.id);
  // Between 06:00 and noon (event time) the sandbox has one closed night, which
  // e2e/night-close.spec.ts signed before: this spec then signs on top of its sign-offs.
  const signedBefore = first.signoffs.length;

  // Sign off with a count for the first desk (a small shortage).
  const line = first.figures!.expected[0]!;
  const input = page.getByLabel(
    `Counted ${line.payment_method} at ${line.device_id || "online, no terminal"}`,
  );
  await input.fill(((line.expected - 100) / 100).toFixed(2));
  await page.getByLabel("Comment").fill("first count");
  await page.getByRole("button", { name: signedBefore ? "Sign off again" : "Sign off this night" }).click();
  // The lines left blank are named before anything is stored.
  await expect(page.getByTestId("signoff-confirm")).toContainText(
    `1 of ${first.figures!.expected.length} lines counted: sign off anyway?`,
  );
  await page.getByRole("button", { name: "Sign off anyway" }).click();
  const history = page.getByRole("region", { name: "Sign-off history" });
  await expect(history.locator("tbody tr")).toHaveCount(signedBefore + 1);
  await expect(history.locator("tbody tr").first()).toContainText("supervisor");
  await expect(history.locator("tbody tr").first()).toContainText("first count");
  await expect(history.locator("tbody tr").first()).toContainText(money(-100, currency));
  await expect(page.getByTestId("drift")).toHaveCount(0);
  const afterFirst = await report(page, day.id);
  expect(afterFirst.signoffs).toHaveLength(signedBefore + 1);

  // An offline bar comes back and syncs a cash sale of that night.
  const adminToken = readFileSync(join(E2E_DATA_DIR, "api", "admin-token"), "utf8").trim();
  const occurredAt = new Date(Date.parse(day.starts_at) + 2 * 3600_000).toISOString();
  const res = await fetch(`${ORIGIN}/admin/simulator/late-sale`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ occurred_at: occurredAt, device_id: "bar-late-e2e", unit_price: 4321 }),
  });
  expect(res.status).toBe(201);

  const drift = page.getByTestId("drift");
  await expect(drift).toBeVisible({ timeout: 90_000 });
  await expect(drift).toContainText(/Changed since sign-off: \+\d+ sales, \+/);
  await expect(drift.getByRole("row", { name: /Sales at bar-late-e2e/ })).toContainText(
    money(4321, currency),
  );
  await expect(drift.getByRole("row", { name: /Expected cash at bar-late-e2e/ })).toBeVisible();
  await expect(page.getByRole("region", { name: /Late arrivals/ })).toContainText("bar-late-e2e");
  const drifted = await report(page, day.id);
  expect(drifted.drift!.sales_count).toBeGreaterThanOrEqual(1);
  expect(drifted.drift!.sales_total).toBeGreaterThanOrEqual(4321);

  // Sign again once the night matches the upstream summary again: the drift is gone, both
  // sign-offs stay in the history, the first unchanged.
  await expect(page.getByTestId("checksum")).toContainText("Matches upstream", { timeout: 90_000 });
  await page.getByLabel("Comment").fill("after the late bar");
  await page.getByRole("button", { name: "Sign off again" }).click();
  await page.getByRole("button", { name: "Sign off anyway" }).click();
  await expect(history.locator("tbody tr")).toHaveCount(signedBefore + 2);
  await expect(page.getByTestId("drift")).toHaveCount(0);
  const signed = await report(page, day.id);
  expect(signed.signoffs[1]!.snapshot).toEqual(afterFirst.signoffs[0]!.snapshot);
  expect(signed.signoffs[1]!.snapshot.figures.sales.count).toBe(first.figures!.sales.count);
  expect(signed.signoffs[0]!.snapshot.figures.sales.count).toBeGreaterThan(first.figures!.sales.count);

  // The night's totals equal the upstream summary (the late sale included).
  await expectEqualsSummary(page, day.id);
  await expect(page.getByTestId("checksum")).toContainText("Matches upstream", { timeout: 90_000 });

  // The CSV's sums equal the screen.
  const csv = await page.request.get(
    (await page.getByRole("link", { name: "Export the night as CSV" }).getAttribute("href")) as string,
  );
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const rows = (await csv.text())
    .trim()
    .split("\r\n")
    .slice(1)
    .map((l) => l.split(","));
  const cents = (v: string | undefined) => Math.round(Number(v) * 100);
  const sum = (section: string) => rows.filter((r) => r[0] === section).reduce((n, r) => n + cents(r[4]), 0);
  const salesRow = rows.find((r) => r[0] === "sales" && r[1] === "total")!;
  const screenCount = plain(await page.getByTestId("night-sales-count").textContent());
  const screenTotal = plain(await page.getByTestId("night-sales-total").textContent());
  expect(Number(salesRow[3]).toLocaleString("en-GB")).toBe(screenCount);
  expect(money(cents(salesRow[4]), currency)).toBe(screenTotal);
  expect(money(sum("sales_by_payment_method"), currency)).toBe(screenTotal);
  expect(money(sum("sales_by_terminal"), currency)).toBe(screenTotal);
  expect(money(sum("sales_tax_base") + sum("sales_tax_amount"), currency)).toBe(screenTotal);

  // The report to print is the latest sign-off's, from its snapshot: the console's controls hidden.
  await history.getByRole("link", { name: `Print view of sign-off ${signed.signoffs[0]!.id}` }).click();
  await expect(page.getByTestId("night-report")).toContainText(`Night report: ${day.name}`);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Screens" })).toBeHidden();
  await expect(page.getByTestId("report-facts")).toContainText("Signed off by supervisor");
});
