import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApi } from "@/integration-api/testing/test-api";
import type { SalesSummary } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import type { UpstreamClient } from "@/lib/server/upstream/client";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { realApiWithClient } from "@/lib/testing/real-api-sync";
import { SyncWorker } from "../sync/worker";
import { overviewReport, salesDayReport, scansDayReport, topupsDayReport } from "./reports";
import { salesCsv } from "./sales-csv";

/** The live reports, read from the aggregates after a real sync, against the upstream checksum. */

let api: TestApi;
let db: Db;
let key: string;
/** The clock of the in-process Integration API and its client (its demo event is seeded around it). */
let client: UpstreamClient;

beforeAll(async () => {
  ({ api, key, client } = await realApiWithClient());
  db = await openTestDashboardStore();
  const noop = () => {};
  await new SyncWorker({
    db,
    client,
    intervalMs: 30_000,
    log: { info: noop, warn: noop, error: noop },
  }).runOnce();
});

afterAll(async () => {
  await db?.close();
  await api?.close();
});

const byKey = <T>(rows: T[], key: (r: T) => string) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));

describe("live reports", () => {
  it("equal GET /reports/sales-summary for every day", async () => {
    const days = (await api.get<{ data: { id: string }[] }>("/v1/days", key)).body.data;
    expect(days.length).toBeGreaterThan(0);
    for (const day of days) {
      const summary = (await api.get<SalesSummary>(`/v1/reports/sales-summary?day_id=${day.id}`, key)).body;
      const sales = await salesDayReport(db, { dayId: day.id, now: client.now() });
      expect(sales.totals).toEqual({
        count: summary.sales.count,
        total: summary.sales.total,
        total_base: summary.sales.total_base,
        total_tax: summary.sales.total_tax,
      });
      expect(sales.hours.reduce((n, h) => n + h.total, 0)).toBe(summary.sales.total);
      expect(byKey(sales.by_payment_method, (m) => m.payment_method)).toEqual(
        byKey(summary.by_payment_method, (m) => m.payment_method),
      );
      expect(
        byKey(sales.by_product, (p) => p.product_id).map(({ product_id, quantity, total }) => ({
          product_id,
          quantity,
          total,
        })),
      ).toEqual(
        byKey(summary.by_product, (p) => p.product_id).map(({ product_id, quantity, total }) => ({
          product_id,
          quantity,
          total,
        })),
      );
      expect(
        byKey(sales.by_tax, (t) => `${t.tax_type}${t.rate}`).map((t) => ({
          tax_type: t.tax_type,
          rate: t.rate,
          base: t.base,
          amount: t.tax,
        })),
      ).toEqual(
        byKey(summary.by_tax, (t) => `${t.tax_type}${t.rate}`).map(({ tax_type, rate, base, amount }) => ({
          tax_type,
          rate,
          base,
          amount,
        })),
      );

      const flows = await topupsDayReport(db, { dayId: day.id, now: client.now() });
      expect(flows.flows.topups).toEqual({ count: summary.topups.count, amount: summary.topups.amount });
      expect(flows.flows.withdrawals).toEqual({
        count: summary.withdrawals.count,
        amount: summary.withdrawals.amount,
      });
      expect(flows.flows.bonus).toEqual(summary.bonuses);
      // Paid money and promo credit apart: the mirror by nature, the summary by payment method.
      const method = (keep: (m: string) => boolean) => {
        const of = summary.topups.by_payment_method.filter((m) => keep(m.payment_method));
        return { count: of.reduce((n, m) => n + m.count, 0), amount: of.reduce((n, m) => n + m.amount, 0) };
      };
      expect(flows.flows.paid).toEqual(method((m) => m !== "promo" && m !== "transfer"));
      expect(flows.flows.promo).toEqual(method((m) => m === "promo"));
      expect(flows.flows.paid.amount + flows.flows.promo.amount).toBeLessThanOrEqual(
        flows.flows.topups.amount,
      );
    }
  });

  it("pages the latest sales without gaps or repeats, and exports the whole day", async () => {
    const [day] = await db.query<{ day_id: string; n: number }>(
      "select day_id, count(*)::int as n from m_sales group by day_id order by n desc limit 1",
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const report: Awaited<ReturnType<typeof salesDayReport>> = await salesDayReport(db, {
        dayId: day!.day_id,
        cursor,
        now: client.now(),
      });
      seen.push(...report.latest.data.map((s) => s.id));
      cursor = report.latest.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(day!.n);
    expect(seen.length).toBe(day!.n);

    const text = await new Response(salesCsv(db, day!.day_id, "EUR", "Europe/Madrid", "en")).text();
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines[0]).toMatch(/^id,occurred_at,/);
    expect(lines).toHaveLength(day!.n + 1);
    // In Spanish the same rows under Spanish column names.
    const es = (await new Response(salesCsv(db, day!.day_id, "EUR", "Europe/Madrid", "es")).text()).split(
      "\r\n",
    );
    expect(es[0]).toBe(
      "id,ocurrido_en,hora_local (Europe/Madrid),recibido_en,estado,tipo,metodo_pago,terminal,moneda,total,base,impuestos,articulos",
    );
    expect(es.slice(1)).toEqual(text.split("\r\n").slice(1));
  });

  it("answers the overview and the scans for the current day, and refuses an unknown day", async () => {
    const now = client.now();
    const overview = await overviewReport(db, now);
    expect(overview.day).not.toBeNull();
    expect(overview.event?.currency).toBeTruthy();
    expect(overview.by_day.reduce((n, d) => n + d.count, 0)).toBeGreaterThan(0);
    const scans = await scansDayReport(db, { dayId: null, now });
    expect(scans.day?.id).toBe(overview.day?.id);
    // No words of the server's own: scans without a zone (check-ins) have no name, the screen names them.
    const days = (await api.get<{ data: { id: string }[] }>("/v1/days", key)).body.data;
    const zones = [];
    for (const day of days) zones.push(...(await scansDayReport(db, { dayId: day.id, now })).by_zone);
    expect(zones.some((z) => z.zone_id === "" && z.name === null)).toBe(true);
    expect(zones.filter((z) => z.zone_id !== "").every((z) => typeof z.name === "string")).toBe(true);
    expect(JSON.stringify(zones)).not.toContain("No zone");
    await expect(salesDayReport(db, { dayId: "day_nope", now })).rejects.toMatchObject({ status: 400 });
  });
});
