import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApi } from "@/integration-api/testing/test-api";
import type { SalesSummary } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import type { UpstreamClient } from "@/lib/server/upstream/client";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { realApiWithClient } from "@/lib/testing/real-api-sync";
import { mirrorDayTotals } from "../store/mirror";
import { summaryTotals } from "./checksum";
import { syncStatus } from "./status";
import { SyncWorker } from "./worker";

/** One run of the worker against the real Integration API, in-process (no port). */

let api: TestApi;
let db: Db;
let key: string;
let worker: SyncWorker;
let client: UpstreamClient;
const warnings: unknown[] = [];

beforeAll(async () => {
  ({ api, key, client } = await realApiWithClient());
  db = await openTestDashboardStore();
  worker = new SyncWorker({
    db,
    client,
    intervalMs: 30_000,
    log: {
      info() {},
      warn: (...args: unknown[]) => void warnings.push(args),
      error: (...a) => void warnings.push(a),
    },
  });
});

afterAll(async () => {
  await db?.close();
  await api?.close();
});

async function days(): Promise<{ id: string; name: string; starts_at: string }[]> {
  const res = await api.get<{ data: { id: string; name: string; starts_at: string }[] }>("/v1/days", key);
  return res.body.data;
}

/** For every day, the mirror's completed totals equal GET /reports/sales-summary?day_id=. */
async function expectTotalsEqualSummaries() {
  for (const day of await days()) {
    const res = await api.get<SalesSummary>(`/v1/reports/sales-summary?day_id=${day.id}`, key);
    expect(res.status).toBe(200);
    expect({ day: day.name, ...(await mirrorDayTotals(db, day.id)) }).toEqual({
      day: day.name,
      ...summaryTotals(res.body),
    });
  }
}

const mirroredIds = async (table: string) =>
  (await db.query<{ id: string }>(`select id from ${table} order by id`)).map((r) => r.id);

describe("SyncWorker against the real Integration API", () => {
  it("mirrors the event exactly: every list, every day's totals", async () => {
    const report = await worker.runOnce();
    expect(Object.entries(report.resources).filter(([, r]) => !r.ok)).toEqual([]);
    expect(report.rewalkedDays).toEqual([]);
    expect(report.matchedDays).toHaveLength((await days()).length);
    await expectTotalsEqualSummaries();

    const ids = async (path: string) => (await api.walk(path, key)).map((x) => x.id).sort();
    expect(await mirroredIds("m_sales")).toEqual(await ids("/v1/transactions"));
    expect(await mirroredIds("m_topups")).toEqual(await ids("/v1/topups"));
    expect(await mirroredIds("m_scans")).toEqual(await ids("/v1/checkins"));
    expect(await mirroredIds("m_tickets")).toEqual(await ids("/v1/tickets"));
    expect(await mirroredIds("m_review_wristbands")).toEqual(
      await ids("/v1/wristbands?status=pending_review"),
    );
    expect((await mirroredIds("m_sales")).length).toBeGreaterThan(1000);

    expect(client.readQuota).toMatchObject({ limit: 100_000 });
    const status = await syncStatus(db, { now: client.now() });
    expect(status.healthy).toBe(true);
    expect(status.resources.every((r) => r.lastSuccessAt !== null)).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("mirrors a late offline sale in the day it occurred", async () => {
    const [day1] = await days();
    const [wristband] = await api.db.query<{ id: string }>(
      "select id from wristbands where status = 'active' order by id limit 1",
    );
    // Three hours into the first day, synced now: a terminal that was offline for days.
    const occurredAt = new Date(Date.parse(day1.starts_at) + 3 * 3_600_000);
    const saleId = await api.db.transaction((tx) =>
      api.services.writes.recordSale(
        tx,
        {
          wristbandId: wristband.id,
          lines: [
            {
              product_id: "late-beer",
              name: "Late beer",
              quantity: 3,
              unit_price: 650,
              included_quantity: 0,
              tax_type: "VAT",
              rate: 21,
            },
          ],
          paymentMethod: "card",
          online: false,
        },
        { occurredAt, createdAt: new Date(), deviceId: "bar-offline" },
      ),
    );

    const report = await worker.runOnce();
    expect(report.resources.sales).toMatchObject({ ok: true, records: 1 });
    const [row] = await db.query<{ day_id: string; total: number; occurred_at: string }>(
      "select day_id, total, occurred_at from m_sales where id = $1",
      [saleId],
    );
    expect(row).toMatchObject({ day_id: day1.id, total: 1950 });
    expect(new Date(row.occurred_at).toISOString()).toBe(occurredAt.toISOString());
    await expectTotalsEqualSummaries();
  });

  it("re-walks a day whose mirror lost a record, found by the real sales summary", async () => {
    const [, day2] = await days();
    const [victim] = await db.query<{ id: string }>(
      "select id from m_sales where day_id = $1 and status = 'completed' order by id limit 1 offset 7",
      [day2.id],
    );
    await db.query("delete from m_sales where id = $1", [victim.id]);

    const report = await worker.runOnce();
    expect(report.rewalkedDays).toEqual([day2.id]);
    expect(await db.query("select 1 from m_sales where id = $1", [victim.id])).toHaveLength(1);
    await expectTotalsEqualSummaries();
    const status = await syncStatus(db, { now: client.now() });
    expect(status.days.find((d) => d.dayId === day2.id)).toMatchObject({ matched: true, rewalks: 1 });
  });
});
