/**
 * bench/gates: the cost per sync cycle of the gates (issue 28) on a dashboard store of 1,000,000
 * mirrored door scans and 1,000,000 sales (its own store, .data/bench-gates, built once with the
 * mirror's triggers on, as the sync worker's writes keep the aggregates).
 *
 *   npm run bench:gates      (BENCH_CYCLES=30)
 *
 * Each cycle writes a tail page of 200 scans and 200 sales through the mirror's upsert (the gates'
 * triggers keep the entries, first entries and denials, and queue the records), a few of them
 * misuse (a walk, a double swipe, a burst), then runs `evaluateGates` (the rule step on the queue
 * and the capacity alerts) and the Entries screen's read. Every other scan page is written without
 * the gates' triggers (to show their cost) and queued for the rules by hand, so every step sees
 * 200 + 200 new records. The clock moves 30 s per cycle. Printed:
 * the step's p50/p95/max (goal p95 < 100 ms), the page writes with the gates' triggers and
 * without them, the screen's read, and the full rebuild of the aggregates the triggers avoid.
 */
import { performance } from "node:perf_hooks";
import type { Checkin } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import { evaluateGates } from "@/lib/server/gates/evaluate";
import { entriesView } from "@/lib/server/gates/views";
import { openDashboardStore } from "@/lib/server/store";
import { upsertSales, upsertScans } from "@/lib/server/store/mirror";
import { saleRecord, scanRecord } from "@/lib/testing/mirror-records";

const DATA_DIR = ".data/bench-gates";
const RECORDS = 1_000_000;
const CHUNK = 100_000;
const CYCLES = Number(process.env.BENCH_CYCLES ?? 30);
const PAGE = 200;
const GOAL_MS = 100;

const count = async (db: Db, table: string) =>
  Number((await db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]?.n ?? 0);
const today = new Date();
today.setUTCHours(10, 0, 0, 0);
const dayStart = (i: number) => new Date(today.getTime() + (i - 2) * 86400_000);

const db = await openDashboardStore({ dataDir: DATA_DIR });
if ((await count(db, "m_scans")) !== RECORDS || (await count(db, "m_sales")) !== RECORDS) {
  const started = performance.now();
  console.log(`Building ${DATA_DIR}: ${RECORDS.toLocaleString("en")} scans and sales…`);
  await db.exec(
    "delete from m_sales; delete from m_scans; delete from m_days; delete from m_zones; delete from m_event; delete from g_misuse_queue; delete from misuse_cases;",
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
  await db.exec("insert into gate_capacity values ('zone_main', 60000, 'bench', now());");
  for (let from = 1; from <= RECORDS; from += CHUNK) {
    const to = Math.min(RECORDS, from + CHUNK - 1);
    // 100,000 wristbands, each seen about ten times over three nights at one of three zones.
    await db.query(
      `insert into m_scans (id, kind, allowed, reason, ticket_code, wristband_id, zone_id, device_id, day_id,
         occurred_at, created_at)
       select 'chk_' || lpad(g::text, 8, '0'), 'access_check', g % 20 <> 0,
         case when g % 20 = 0 then (array['zone_not_allowed','day_not_valid','unknown_code'])[1 + g % 3] end,
         'TCK' || (g % 100000), 'wb_' || (g % 100000), (array['zone_main','zone_vip','zone_camp'])[1 + (g / 100000) % 3],
         'gate_' || ((g / 100000) % 3) || '_' || (g % 2), 'day_' || ((g % 3)::text), o.at, o.at + interval '2 seconds'
       from generate_series($1::int, $2::int) g,
         lateral (select $3::timestamptz + ((g % 3) * interval '1 day') + ((g::bigint * 7919) % 64800) * interval '1 second' as at) o`,
      [from, to, dayStart(0).toISOString()],
    );
    await db.query(
      `insert into m_sales (id, status, type, payment_method, total, total_base, total_tax, tax_breakdown, items,
         wristband_id, day_id, device_id, occurred_at, created_at)
       select 'txn_' || lpad(g::text, 8, '0'), 'completed', 'cart', (array['wristband','card','cash'])[1 + g % 3],
         300 * (1 + g % 7), 270 * (1 + g % 7), 30 * (1 + g % 7), '[]'::jsonb, '[]'::jsonb,
         'wb_' || (g % 100000), 'day_' || ((g % 3)::text), 'dev_' || (g % 60), o.at, o.at + interval '3 seconds'
       from generate_series($1::int, $2::int) g,
         lateral (select $3::timestamptz + ((g % 3) * interval '1 day') + ((g::bigint * 6151) % 64800) * interval '1 second' as at) o`,
      [from, to, dayStart(0).toISOString()],
    );
    // The first mirror's records are the rules' too: drained here, as the worker's first cycles would.
    while ((await evaluateGates(db, new Date(dayStart(2).getTime() + 6 * 3600_000))).records > 0);
    process.stdout.write(`  ${to.toLocaleString("en")} scans and sales\r`);
  }
  await db.exec("vacuum analyze;");
  console.log(`Built in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}
// A store built before the queue was vacuumed after drains: its dead rows go now.
await db.exec("vacuum analyze g_misuse_queue;");
const scans = await count(db, "m_scans");
const sales = await count(db, "m_sales");
console.log(
  `Store: ${scans.toLocaleString("en")} scans, ${sales.toLocaleString("en")} sales; first entries ${await count(db, "g_first_entries")}`,
);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
const GATE_TRIGGERS = ["gates_scans_ins", "gates_scans_upd", "gates_scans_del"];
const setTriggers = (on: boolean) =>
  db.exec(
    GATE_TRIGGERS.map((t) => `alter table m_scans ${on ? "enable" : "disable"} trigger ${t};`).join(" "),
  );

const step: number[] = [];
const read: number[] = [];
const pageWith: number[] = [];
const pageWithout: number[] = [];
const written: { scans: string[]; sales: string[] }[] = [];
let now = new Date(dayStart(2).getTime() + 6 * 3600_000);
let n = 0;
let found = 0;
try {
  for (let cycle = 0; cycle < CYCLES + 2; cycle++) {
    const withTriggers = cycle % 2 === 0;
    const zones = ["zone_main", "zone_vip", "zone_camp"];
    const pageScans = Array.from({ length: PAGE }, (_, i) => {
      // One wristband per cycle walks from the main stage to the VIP area in 20 s; a burst of denials at gate_x.
      const walker = i < 2;
      const burst = i >= 2 && i < 14 && cycle % 5 === 0;
      const occurred = new Date(now.getTime() - (walker ? (1 - i) * 20_000 : (i % 30) * 1000));
      return {
        ...scanRecord({
          device: walker ? `gate_w${i}` : burst ? "gate_x" : `gate_${i % 6}`,
          day: "day_2",
          occurred,
          created: now,
        }),
        id: `sb${(++n).toString(16).padStart(22, "0")}`,
        allowed: !burst,
        reason: burst ? "unknown_code" : null,
        wristband_id: walker ? `wb_walk_${cycle}` : `wb_${(cycle * PAGE + i * 37) % 100000}`,
        ticket_code: null,
        zone: { id: walker ? zones[i]! : zones[i % 3]!, name: "" },
      } as Checkin;
    });
    const pageSales = Array.from({ length: PAGE }, (_, i) => ({
      ...saleRecord({
        id: `sa${(++n).toString(16).padStart(22, "0")}`,
        device: `dev_${i % 60}`,
        day: "day_2",
        // Two sales of one cycle are a double swipe (same bar, band and amount, 3 s apart).
        occurred: new Date(now.getTime() - (i < 2 ? i * 3000 : (i % 30) * 1000)),
        created: now,
        total: i < 2 ? 900 : 300 + (i % 9) * 100,
      }),
      wristband_id: i < 2 ? `wb_swipe_${cycle}` : `wb_${(cycle * PAGE + i * 53) % 100000}`,
      device_id: i < 2 ? "dev_swipe" : `dev_${i % 60}`,
    }));
    if (!withTriggers) await setTriggers(false);
    const w0 = performance.now();
    await upsertScans(db, pageScans);
    const w = performance.now() - w0;
    if (!withTriggers) {
      await setTriggers(true);
      // The rules see every cycle's scans: queued here as the trigger would have.
      await db.query("insert into g_misuse_queue (resource, id) select 'scans', unnest($1::text[])", [
        pageScans.map((s) => s.id),
      ]);
    }
    await upsertSales(db, pageSales);
    written.push({ scans: pageScans.map((s) => s.id), sales: pageSales.map((s) => s.id) });
    const e0 = performance.now();
    const outcome = await evaluateGates(db, now);
    const e = performance.now() - e0;
    const r0 = performance.now();
    await entriesView(db, "day_2", now);
    const r = performance.now() - r0;
    process.stdout.write(
      `  cycle ${cycle + 1}: step ${e.toFixed(1)} ms, read ${r.toFixed(1)} ms, page ${w.toFixed(1)} ms\r`,
    );
    // The first two cycles warm up (plans, caches); they are not counted.
    if (cycle >= 2) {
      step.push(e);
      read.push(r);
      (withTriggers ? pageWith : pageWithout).push(w);
      found += outcome.cases;
    }
    now = new Date(now.getTime() + 30_000);
  }
} finally {
  for (const w of written) {
    await db.query("delete from m_scans where id = any($1::text[])", [w.scans]);
    await db.query("delete from m_sales where id = any($1::text[])", [w.sales]);
  }
  await db.exec(
    "delete from g_misuse_queue; delete from misuse_cases; delete from alerts; delete from g_device_clock; select gates_recompute();",
  );
}
const r0 = performance.now();
await db.query("select gates_recompute()");
const rebuildMs = performance.now() - r0;
await db.close();

const result = {
  scans,
  sales,
  cycles: CYCLES,
  casesFound: found,
  step: { p50: pct(step, 50), p95: pct(step, 95), max: Math.max(...step) },
  read: { p50: pct(read, 50), p95: pct(read, 95) },
  pageWith: { p50: pct(pageWith, 50) },
  pageWithout: { p50: pct(pageWithout, 50) },
  rebuildMs,
  goalMs: GOAL_MS,
};
console.log(
  `gates step per cycle (200 scans + 200 sales): p50 ${result.step.p50.toFixed(1)} ms, p95 ${result.step.p95.toFixed(1)} ms, max ${result.step.max.toFixed(1)} ms (goal p95 < ${GOAL_MS} ms); cases found ${found}`,
);
console.log(`BENCH_JSON ${JSON.stringify(result)}`);
