import { IdGenerator } from "../ids";
import type { Db } from "../store/db";
import type { DemoData, SeedContext, SeedOptions, SeedSummary } from "./demo-model";
import { writeDemo } from "./demo-write";
import { Random } from "./random";
import { seedEvent } from "./seed-event";
import { seedMoney } from "./seed-money";
import { seedSales } from "./seed-sales";
import { seedScans } from "./seed-scans";
import { seedTickets } from "./seed-tickets";
import { seedWristbands } from "./seed-wristbands";

export type { DemoData, SeedOptions, SeedSummary } from "./demo-model";
export { type DemoDay, demoDays } from "./seed-event";

/**
 * Demo event seeder: a four-day festival around `now` (two past days, today, one future day) with
 * tickets, wristbands, sales, top-ups and scans. Everything comes from one seeded generator, so the
 * same `random` and `now` give identical data. Balances are simulated chronologically per wristband,
 * so every wristband satisfies the ledger identity:
 *   balance       = Σ completed non-promo top-ups (topup +, withdraw −) − Σ completed sales balance_spent
 *   promo_balance = Σ completed promo top-ups − Σ completed sales promo_spent
 *
 * Each section lives in its own file (seed-event, seed-tickets, seed-wristbands, seed-sales,
 * seed-money, seed-scans) and draws from its own random stream; demo-write.ts stores the result.
 */

/** Seeds the demo event into an empty, migrated store, in one transaction. */
export async function seedDemo(db: Db, options: SeedOptions): Promise<SeedSummary> {
  const data = buildDemo(options);
  await db.transaction((tx) => writeDemo(tx, data));
  return data.summary;
}

export function buildDemo(options: SeedOptions): DemoData {
  const { scale } = options;
  if (!(Number.isFinite(scale) && scale > 0)) throw new Error("scale must be a positive number");
  if (!Number.isInteger(options.random)) throw new Error("random must be an integer");
  const now = Math.floor((options.now ?? new Date()).getTime());
  const rng = new Random(options.random);

  // One id generator per table and one random stream per section, created in a fixed order.
  const gen = {
    event: new IdGenerator(rng.next),
    days: new IdGenerator(rng.next),
    zones: new IdGenerator(rng.next),
    ticketTypes: new IdGenerator(rng.next),
    bonusRules: new IdGenerator(rng.next),
    tickets: new IdGenerator(rng.next),
    wristbands: new IdGenerator(rng.next),
    sales: new IdGenerator(rng.next),
    topups: new IdGenerator(rng.next),
    scans: new IdGenerator(rng.next),
  };
  const random = {
    tickets: rng.fork(),
    wristbands: rng.fork(),
    sales: rng.fork(),
    money: rng.fork(),
    scans: rng.fork(),
  };

  const event = seedEvent(now, gen, options.timeZone);
  const { days } = event;
  const ctx: SeedContext = {
    scale,
    now,
    random,
    days,
    startedDays: days.filter((d) => d.start < now),
    pastDays: days.filter((d) => d.end <= now),
    allDaysMask: (1 << days.length) - 1,
    firstStart: event.firstStart,
    bonusRules: event.bonusRules,
  };
  const tickets = seedTickets(ctx);
  const seeded = seedWristbands(ctx, tickets);
  const { wristbands } = seeded;
  const sales = seedSales(ctx, seeded);
  const topups = seedMoney(ctx, wristbands, sales, tickets.length);
  const scans = seedScans(ctx, tickets, seeded);

  // Ids: per table, in arrival (created_at) order.
  const assign = <T extends { id: string }>(items: T[], createdOf: (x: T) => number, g: IdGenerator) => {
    const order = items.map((_, i) => i).sort((a, b) => createdOf(items[a]) - createdOf(items[b]) || a - b);
    for (const i of order) items[i].id = g.next(new Date(createdOf(items[i])));
  };
  assign(tickets, (t) => t.createdAt, gen.tickets);
  assign(wristbands, (w) => w.createdAt, gen.wristbands);
  assign(topups, (t) => t.created, gen.topups);
  assign(scans, (s) => s.created, gen.scans);
  const salesOrder = new Uint32Array(sales.n);
  for (let i = 0; i < sales.n; i++) salesOrder[i] = i;
  salesOrder.sort((a, b) => sales.created[a] - sales.created[b] || a - b);
  const salesIds: string[] = new Array(sales.n);
  for (const i of salesOrder) salesIds[i] = gen.sales.next(new Date(sales.created[i]));

  return {
    now,
    eventRow: event.eventRow,
    days,
    zoneRows: event.zoneRows,
    typeRows: event.typeRows,
    ruleRows: event.ruleRows,
    tickets,
    wristbands,
    sales,
    salesOrder,
    salesIds,
    topups,
    scans,
    summary: {
      tickets: tickets.length,
      wristbands: wristbands.length,
      sales: sales.n,
      topups: topups.length,
      scans: scans.length,
      days: days.length,
    },
  };
}
