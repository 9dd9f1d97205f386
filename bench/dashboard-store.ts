/**
 * The dashboard store of the read benchmarks (bench/dashboard-read, bench/page-load): 1,000,000
 * mirrored sales, 200,000 top-ups and 200,000 door scans over four nights, with their aggregates.
 * Built once into .data/bench-dashboard/dashboard (PGlite on disk, rows generated in SQL in chunks,
 * the aggregate triggers maintaining the aggregates as the sync worker's writes do) and reused.
 */
import { performance } from "node:perf_hooks";
import type { Db } from "@/lib/db/db";
import { addUser } from "@/lib/server/auth/accounts";
import { openDashboardStore } from "@/lib/server/store";

export const DATA_DIR = ".data/bench-dashboard";
export const SALES = 1_000_000;
const TOPUPS = 200_000;
const SCANS = 200_000;
const CHUNK = 50_000;

/** The manager login the benchmarks sign in with. */
export const BENCH_USER = { username: "bench", password: "bench-password-long-enough" };

export const count = async (db: Db, table: string) =>
  Number((await db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]?.n ?? 0);

// Four nights from 12:00 to 06:00 Madrid time, the third holding "now".
const today = new Date();
today.setUTCHours(10, 0, 0, 0);
export const dayStart = (i: number) => new Date(today.getTime() + (i - 2) * 86400_000);

/** Opens the store, building it first when it does not hold the 1,000,000 sales. */
export async function openBenchDashboardStore(): Promise<Db> {
  const db = await openDashboardStore({ dataDir: DATA_DIR });
  if ((await count(db, "m_sales")) !== SALES) {
    const started = performance.now();
    console.log(`Building ${DATA_DIR}: ${SALES.toLocaleString("en")} sales…`);
    await db.exec(
      "delete from m_sales; delete from m_topups; delete from m_scans; delete from m_days; delete from m_zones; delete from m_event; delete from sync_state;",
    );
    await db.query(
      `insert into m_event (id, name, currency, time_zone, starts_at, ends_at, environment, synced_at)
       values ('evt_bench', 'Bench Fest', 'EUR', 'Europe/Madrid', $1, $2, 'test', now())`,
      [dayStart(0).toISOString(), new Date(dayStart(3).getTime() + 18 * 3600_000).toISOString()],
    );
    for (let i = 0; i < 4; i++)
      await db.query("insert into m_days values ($1, $2, $3, $4, $5)", [
        `day_${i}`,
        `Night ${i + 1}`,
        dayStart(i).toISOString().slice(0, 10),
        dayStart(i).toISOString(),
        new Date(dayStart(i).getTime() + 18 * 3600_000).toISOString(),
      ]);
    await db.exec(
      "insert into m_zones values ('zone_main', 'Main stage'), ('zone_vip', 'VIP'), ('zone_camp', 'Camping');",
    );
    await db.query(
      `insert into sync_state (resource, last_success_at, last_attempt_at, lag_seconds)
       select r, now(), now(), 1 from unnest(array['event','days','zones','ticket_types','tickets','sales','topups','scans','review']) r
       on conflict do nothing`,
    );
    // Spread over the first three nights (18 h each); 5 % arrive late.
    for (let from = 1; from <= SALES; from += CHUNK) {
      await db.query(
        `insert into m_sales (id, status, type, payment_method, total, total_base, total_tax, tax_breakdown, items,
           wristband_id, day_id, device_id, occurred_at, created_at)
         select 'txn_' || lpad(g::text, 8, '0'),
           case when g % 50 = 0 then 'cancelled' else 'completed' end, 'cart',
           (array['wristband','card','cash'])[1 + g % 3],
           t.total, t.total - t.tax, t.tax,
           jsonb_build_array(jsonb_build_object('tax_type', 'VAT', 'rate', case when g % 4 = 0 then 21 else 10 end,
             'base', t.total - t.tax, 'amount', t.tax)),
           jsonb_build_array(jsonb_build_object('product_id', 'prd_' || (g % 40), 'name', 'Product ' || (g % 40),
             'quantity', 1 + g % 3, 'unit_price', t.total / (1 + g % 3), 'charged_amount', t.total, 'included_quantity', 0)),
           'wb_' || (g % 20000), 'day_' || ((g % 3)::text), 'dev_' || (g % 60),
           o.at, o.at + case when g % 20 = 0 then interval '40 minutes' else interval '3 seconds' end
         from generate_series($1::int, $2::int) g,
           lateral (select (300 * (1 + g % 3) * (1 + g % 7))::int as total) t0,
           lateral (select t0.total, (t0.total * 0.1)::int as tax) t,
           lateral (select $3::timestamptz + ((g % 3) * interval '1 day')
                      + ((g::bigint * 7919) % 64800) * interval '1 second' as at) o`,
        [from, Math.min(SALES, from + CHUNK - 1), dayStart(0).toISOString()],
      );
      process.stdout.write(`  sales ${Math.min(SALES, from + CHUNK - 1).toLocaleString("en")}\r`);
    }
    await db.query(
      `insert into m_topups (id, direction, amount, previous_balance, new_balance, payment_method, nature, status,
         wristband_id, day_id, device_id, occurred_at, created_at)
       select 'top_' || lpad(g::text, 8, '0'), case when g % 5 = 0 then 'withdraw' else 'topup' end,
         500 * (1 + g % 10), 0, 0, (array['card','cash','online','promo'])[1 + g % 4],
         (array['paid','paid','bonus','courtesy'])[1 + g % 4], 'completed', 'wb_' || (g % 20000),
         'day_' || ((g % 3)::text), 'desk_' || (g % 8), o.at, o.at
       from generate_series(1, $1::int) g,
         lateral (select $2::timestamptz + ((g % 3) * interval '1 day') + ((g::bigint * 7919) % 64800) * interval '1 second' as at) o`,
      [TOPUPS, dayStart(0).toISOString()],
    );
    await db.query(
      `insert into m_scans (id, kind, allowed, reason, ticket_code, wristband_id, zone_id, device_id, day_id,
         occurred_at, created_at)
       select 'chk_' || lpad(g::text, 8, '0'), 'access_check', g % 10 <> 0,
         case when g % 10 = 0 then (array['zone_not_allowed','day_not_valid','unknown_code'])[1 + g % 3] end,
         'TCK' || g, null, (array['zone_main','zone_vip','zone_camp'])[1 + g % 3], 'gate_' || (g % 6),
         'day_' || ((g % 3)::text), o.at, o.at
       from generate_series(1, $1::int) g,
         lateral (select $2::timestamptz + ((g % 3) * interval '1 day') + ((g::bigint * 7919) % 64800) * interval '1 second' as at) o`,
      [SCANS, dayStart(0).toISOString()],
    );
    await db.exec("analyze;");
    console.log(`Built in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  }
  return db;
}

/** Creates the bench login when the store does not have it yet. */
export async function ensureBenchUser(db: Db) {
  if (!(await db.query("select 1 from users where username = $1", [BENCH_USER.username])).length)
    await addUser(db, BENCH_USER.username, BENCH_USER.password, "manager");
}
