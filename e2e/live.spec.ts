import { expect, type Page, test } from "@playwright/test";
import { formatMoney } from "../lib/shared/format/money";
import { hourBucket } from "../lib/shared/format/time";
import { E2E_API_PORT } from "../playwright.config";
import {
  dashboardKey,
  openScreen,
  SHARED_SANDBOX,
  sandboxControl,
  sandboxNow,
  signIn,
  syncNow,
  waitForFirstSync,
} from "./support";

/**
 * The live screens (issue #5) against the sandbox: the real Integration API with its seeded demo
 * festival and the terminal simulator, mirrored by the dashboard's sync worker.
 */

const API = `http://127.0.0.1:${E2E_API_PORT}/v1`;

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${API}${path}`, { headers: { authorization: `Bearer ${dashboardKey()}` } });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface Summary {
  currency: string;
  sales: { count: number; total: number };
}
interface Day {
  id: string;
  name: string;
  starts_at: string;
  ends_at: string;
}
interface Sale {
  id: string;
  status: string;
  total: number;
  occurred_at: string;
  created_at: string;
}

const plain = (s: string | null) => (s ?? "").replace(/[\u00a0\u202f]/g, " ").trim();
const numberIn = async (page: Page, testId: string) =>
  Number((await page.getByTestId(testId).textContent())?.replace(/[^0-9]/g, ""));

/** Waits for the first sync to have mirrored the event (the screens show "Data as of"). */
async function synced(page: Page) {
  await expect(page.getByTestId("as-of")).toHaveText(/Data as of \d\d:\d\d:\d\d/, { timeout: 120_000 });
}

test.describe.configure({ lock: SHARED_SANDBOX, timeout: 240_000 });

test("every live screen shows the seeded event", async ({ page }) => {
  await signIn(page, "manager");
  await waitForFirstSync(page);
  await openScreen(page, "Overview");
  await synced(page);
  await expect.poll(() => numberIn(page, "day-count"), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect(page.getByTestId("day-total")).not.toHaveText(/^€0\.00$/);
  await expect(page.getByRole("figure", { name: /Sales by hour of the current day/ })).toBeVisible();

  await openScreen(page, "Sales by day");
  await synced(page);
  await expect.poll(() => numberIn(page, "sales-count"), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect(page.getByRole("table", { name: "Sales by product" }).getByRole("row")).not.toHaveCount(1);
  await expect(page.getByRole("table", { name: "Latest sales, newest first" }).getByRole("row")).toHaveCount(
    26,
  );
  // Paging by keyboard.
  await page.getByRole("button", { name: "Older" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Newer" })).toBeEnabled();
  const csv = await page.request.get(
    (await page.getByRole("link", { name: "Export the day as CSV" }).getAttribute("href")) as string,
  );
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect((await csv.text()).split("\r\n")[0]).toMatch(/^id,occurred_at,/);

  await openScreen(page, "Top-ups");
  await synced(page);
  await expect(page.getByTestId("topups-total")).not.toHaveText(/^€0\.00$/, { timeout: 60_000 });
  await page.getByRole("radio", { name: "Withdrawals" }).check();
  const list = page.getByRole("table", { name: "Latest top-ups and withdrawals, newest first" });
  await expect(list.getByRole("cell", { name: "top-up", exact: true })).toHaveCount(0);

  await openScreen(page, "Door scans");
  await synced(page);
  await expect.poll(() => numberIn(page, "scans-allowed"), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect(page.getByRole("table", { name: "Scans per zone" })).toBeVisible();
});

test("the overview's day totals equal GET /reports/sales-summary for each day", async ({ page }) => {
  await signIn(page, "manager");
  await page.goto("/");
  await synced(page);
  const days = (await api<{ data: Day[] }>("/days")).data;
  const current = (await page.getByTestId("current-day").textContent()) ?? "";
  const currentDay = days.find((d) => d.name === current);
  expect(currentDay).toBeDefined();
  // Closed days no longer change: every figure equals the upstream checksum exactly.
  const now = (await sandboxNow()).getTime();
  for (const day of days) {
    if (day.id === currentDay?.id || Date.parse(day.starts_at) > now) continue;
    const summary = await api<Summary>(`/reports/sales-summary?day_id=${day.id}`);
    await expect(page.getByTestId(`by-day-total-${day.id}`)).toHaveText(
      formatMoney(summary.sales.total, summary.currency).replace(/[\u00a0\u202f]/g, " "),
      { timeout: 90_000, useInnerText: true },
    );
    expect(await numberIn(page, `by-day-count-${day.id}`)).toBe(summary.sales.count);
  }
  // The current day keeps selling: the headline total is what the upstream counted at some
  // instant between the two summaries around a fresh read.
  const before = await api<Summary>(`/reports/sales-summary?day_id=${currentDay?.id}`);
  // A sync cycle now, then the screen holds at least what the upstream had counted before it.
  await syncNow();
  await expect
    .poll(
      async () => {
        await page.reload();
        await synced(page);
        return numberIn(page, "day-count");
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBeGreaterThanOrEqual(before.sales.count);
  // The headline and the per-day row are read in one go: both come from one answer, and the screen may
  // refresh itself between two separate reads (a push or its 30 s poll).
  const shown = await page.evaluate((dayId) => {
    const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? "";
    return { count: text("day-count"), total: text("day-total"), row: text(`by-day-count-${dayId}`) };
  }, currentDay?.id);
  const count = Number(shown.count.replace(/[^0-9]/g, ""));
  const total = plain(shown.total);
  const after = await api<Summary>(`/reports/sales-summary?day_id=${currentDay?.id}`);
  expect(count).toBeGreaterThanOrEqual(before.sales.count);
  expect(count).toBeLessThanOrEqual(after.sales.count);
  if (before.sales.count === after.sales.count)
    expect(total).toBe(plain(formatMoney(after.sales.total, after.currency)));
  expect(Number(shown.row.replace(/[^0-9]/g, ""))).toBe(count);
});

// The screen follows the mirror without a reload (pushed, else its 30 s refresh): the sale is made by
// the test, a terminal syncing it at once, and mirrored by a sync cycle asked for now.
test("a sale that reaches the upstream appears without a reload", async ({ page }) => {
  await signIn(page, "manager");
  await page.goto("/");
  await synced(page);
  await expect.poll(() => numberIn(page, "day-count"), { timeout: 60_000 }).toBeGreaterThan(0);
  const first = await numberIn(page, "day-count");
  await sandboxControl("/simulator/late-sale", {
    occurred_at: (await sandboxNow()).toISOString(),
    device_id: "bar-live-e2e",
  });
  await syncNow();
  await expect.poll(() => numberIn(page, "day-count"), { timeout: 60_000 }).toBeGreaterThan(first);
});

test("a sale that synced late lands in the hour and the day it happened", async ({ page }) => {
  await signIn(page, "manager");
  await page.goto("/sales");
  await synced(page);
  const event = await api<{ time_zone: string }>("/event");
  // A closed night: the next one has started, so nothing more lands in it (between nights the
  // day rule still assigns new records to the last night that started).
  const all = (await api<{ data: Day[] }>("/days")).data.sort(
    (a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at),
  );
  const now = (await sandboxNow()).getTime();
  const closed = all.filter((_, i) => i + 1 < all.length && Date.parse((all[i + 1] as Day).starts_at) < now);
  expect(closed.length).toBeGreaterThan(0);
  // Walk its sales upstream and bucket them by occurred_at in the event zone.
  const day = closed[closed.length - 1] as Day;
  const sales: Sale[] = [];
  let cursor: string | null = null;
  do {
    const page_: { data: Sale[]; has_more: boolean; next_cursor: string | null } = await api(
      `/transactions?day_id=${day.id}&limit=200${cursor ? `&starting_after=${cursor}` : ""}`,
    );
    sales.push(...page_.data);
    cursor = page_.has_more ? page_.next_cursor : null;
  } while (cursor);
  const completed = sales.filter((s) => s.status === "completed");
  const late = completed.filter((s) => Date.parse(s.created_at) - Date.parse(s.occurred_at) > 10 * 60_000);
  const movedHour = late.filter(
    (s) => hourBucket(s.created_at, event.time_zone) !== hourBucket(s.occurred_at, event.time_zone),
  );
  expect(movedHour.length).toBeGreaterThan(0);
  const expected = new Map<string, number>();
  for (const s of completed) {
    const h = hourBucket(s.occurred_at, event.time_zone);
    expected.set(h, (expected.get(h) ?? 0) + s.total);
  }
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/live/sales?day_id=${day.id}`);
        const body = (await res.json()) as { hours: { hour: string; total: number }[] };
        return Object.fromEntries(body.hours.filter((h) => h.total !== 0).map((h) => [h.hour, h.total]));
      },
      { timeout: 90_000 },
    )
    .toEqual(Object.fromEntries([...expected].filter(([, t]) => t !== 0)));
  // And the screen shows that day's figures for the late sale's hour.
  await page.getByRole("combobox", { name: /^Event day/ }).selectOption(day.id);
  await expect(page.getByTestId("sales-count")).toHaveText(completed.length.toLocaleString("en-GB"));
});
