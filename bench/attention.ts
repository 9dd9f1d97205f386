/**
 * bench/attention: the cost of what needs attention (issue 13) per sync cycle, on the dashboard
 * store of 1,000,000 mirrored sales (bench/dashboard-store.ts).
 *
 *   npm run bench:attention      (BENCH_CYCLES=30)
 *
 * Each cycle does what a sync cycle does: a tail page of 200 new sales is written (the mirror's
 * triggers keep the device tables), then `evaluateAttention` computes every terminal's state and
 * the alerts, as the worker's after-cycle work. The clock moves 30 s per cycle. Printed: the
 * evaluation's p50/p95/max (goal p95 < 200 ms), the page write with the attention triggers and
 * without them (every other page is written with them disabled), and a full rebuild of the device
 * tables from the whole mirror (the scan the triggers avoid). Then pages of 200 tickets naming
 * wristbands with top-ups, with and without the triggers that count those top-ups under the
 * tickets' type (migration 015). The pages are deleted at the end.
 */
import { performance } from "node:perf_hooks";
import type { Ticket } from "@/lib/contract";
import { evaluateAttention } from "@/lib/server/alerts/evaluate";
import { upsertSales, upsertTickets } from "@/lib/server/store/mirror";
import { DEFAULT_ATTENTION } from "@/lib/server/terminals/terminal-rules";
import { saleRecord } from "@/lib/testing/mirror-records";
import { count, dayStart, openBenchDashboardStore } from "./dashboard-store";

const CYCLES = Number(process.env.BENCH_CYCLES ?? 30);
const PAGE = 200;
const GOAL_MS = 200;

const db = await openBenchDashboardStore();
const sales = await count(db, "m_sales");
const records = sales + (await count(db, "m_topups")) + (await count(db, "m_scans"));
const sizes = {
  device_days: await count(db, "a_device_day"),
  device_minutes: await count(db, "a_device_minute"),
  device_late: await count(db, "a_device_late"),
};
console.log(
  `Store: ${sales.toLocaleString("en")} sales, ${records.toLocaleString("en")} records; device tables ${JSON.stringify(sizes)}`,
);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
const TRIGGERS = ["attention_sales_ins", "attention_sales_upd", "attention_sales_del"];
const setTriggers = (on: boolean) =>
  db.exec(TRIGGERS.map((t) => `alter table m_sales ${on ? "enable" : "disable"} trigger ${t};`).join(" "));

const evaluate: number[] = [];
const pageWith: number[] = [];
const pageWithout: number[] = [];
const written: { ids: string[]; withTriggers: boolean }[] = [];
let now = new Date(dayStart(2).getTime() + 6 * 3600_000);
let outcome = { terminals: 0, open: 0 };
let n = 0;
try {
  for (let cycle = 0; cycle < CYCLES + 2; cycle++) {
    const withTriggers = cycle % 2 === 0;
    const page = Array.from({ length: PAGE }, (_, i) => {
      const late = i % 25 === 0;
      const occurred = new Date(now.getTime() - (late ? 40 * 60_000 : (i % 30) * 1000));
      return saleRecord({
        id: `b0${(++n).toString(16).padStart(22, "0")}`,
        device: `dev_${(i * 7 + cycle) % 60}`,
        day: "day_2",
        occurred,
        created: now,
        total: 300 + (i % 9) * 100,
      });
    });
    if (!withTriggers) await setTriggers(false);
    const w0 = performance.now();
    await upsertSales(db, page);
    const w = performance.now() - w0;
    if (!withTriggers) await setTriggers(true);
    written.push({ ids: page.map((p) => p.id), withTriggers });
    const e0 = performance.now();
    outcome = await evaluateAttention(db, DEFAULT_ATTENTION, now);
    const e = performance.now() - e0;
    // The first two cycles warm up (plans, caches); they are not counted.
    if (cycle >= 2) {
      evaluate.push(e);
      (withTriggers ? pageWith : pageWithout).push(w);
    }
    now = new Date(now.getTime() + 30_000);
  }
} finally {
  for (const { ids, withTriggers } of written) {
    if (!withTriggers) await setTriggers(false);
    await db.query("delete from m_sales where id = any($1::text[])", [ids]);
    if (!withTriggers) await setTriggers(true);
  }
  await db.exec("delete from terminal_states; delete from alerts;");
}

// Tickets reaching the mirror: each names a wristband with top-ups, which the triggers of migration
// 015 move under the ticket's type (Top-up flows, by ticket type). Every other page without them.
const TICKET_TRIGGERS = ["live_tickets_ins", "live_tickets_upd", "live_tickets_del"];
const setTicketTriggers = (on: boolean) =>
  db.exec(
    TICKET_TRIGGERS.map((t) => `alter table m_tickets ${on ? "enable" : "disable"} trigger ${t};`).join(" "),
  );
const ticketsWith: number[] = [];
const ticketsWithout: number[] = [];
const ticketPages: { ids: string[]; withTriggers: boolean }[] = [];
try {
  for (let cycle = 0; cycle < CYCLES + 2; cycle++) {
    const withTriggers = cycle % 2 === 0;
    const tickets = Array.from({ length: PAGE }, (_, i) => {
      const id = `tkb_${cycle}_${i}`;
      return {
        id,
        code: id,
        status: "used",
        ticket_type: { id: `tt_${i % 4}`, name: "" },
        attendee: { name: `Bench Guest ${i}` },
        wristband: { id: `wb_${(cycle * PAGE + i) % 20_000}`, nfc: `NFC${id}`, uhf: null },
        updated_at: now.toISOString(),
      } as unknown as Ticket;
    });
    if (!withTriggers) await setTicketTriggers(false);
    const w0 = performance.now();
    await upsertTickets(db, tickets);
    const w = performance.now() - w0;
    if (!withTriggers) await setTicketTriggers(true);
    ticketPages.push({ ids: tickets.map((t) => t.id), withTriggers });
    if (cycle >= 2) (withTriggers ? ticketsWith : ticketsWithout).push(w);
  }
} finally {
  for (const { ids, withTriggers } of ticketPages) {
    if (!withTriggers) await setTicketTriggers(false);
    await db.query("delete from m_tickets where id = any($1::text[])", [ids]);
    if (!withTriggers) await setTicketTriggers(true);
  }
}

const r0 = performance.now();
await db.query("select attention_recompute()");
const rebuildMs = performance.now() - r0;
await db.close();

const result = {
  bench: "attention",
  sales,
  records,
  sizes,
  cycles: evaluate.length,
  terminals: outcome.terminals,
  openAlerts: outcome.open,
  evaluate: { p50: pct(evaluate, 50), p95: pct(evaluate, 95), max: Math.max(...evaluate) },
  pageWith: { p50: pct(pageWith, 50), p95: pct(pageWith, 95) },
  pageWithout: { p50: pct(pageWithout, 50), p95: pct(pageWithout, 95) },
  ticketsWith: { p50: pct(ticketsWith, 50), p95: pct(ticketsWith, 95) },
  ticketsWithout: { p50: pct(ticketsWithout, 50), p95: pct(ticketsWithout, 95) },
  rebuildMs,
  goalMs: GOAL_MS,
};
const ok = result.evaluate.p95 < GOAL_MS;
console.log(
  `States and alerts per cycle (${result.cycles} cycles, ${result.terminals} terminals): p50 ${result.evaluate.p50.toFixed(1)} ms, p95 ${result.evaluate.p95.toFixed(1)} ms, max ${result.evaluate.max.toFixed(1)} ms (goal p95 < ${GOAL_MS} ms) — ${ok ? "PASS" : "FAIL"}`,
);
console.log(
  `Tail page of ${PAGE} sales: p50 ${result.pageWith.p50.toFixed(1)} ms with the attention triggers, ${result.pageWithout.p50.toFixed(1)} ms without; full rebuild of the device tables ${(rebuildMs / 1000).toFixed(1)} s`,
);
console.log(
  `Page of ${PAGE} tickets whose wristbands have top-ups: p50 ${result.ticketsWith.p50.toFixed(1)} ms with the top-up type triggers, ${result.ticketsWithout.p50.toFixed(1)} ms without`,
);
console.log(`BENCH_JSON ${JSON.stringify(result)}`);
process.exit(ok ? 0 : 1);
