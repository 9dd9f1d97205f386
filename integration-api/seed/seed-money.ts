import type { BonusRule } from "../services/bonus-rules";
import { quoteLine, remainingCap, validRules } from "../services/bonus-rules";
import {
  DEMO_COURTESY_DEVICE,
  DEMO_CREW_COURTESY,
  DEMO_EVENT,
  DEMO_PRODUCTS,
  DEMO_REFUND_DEVICES,
  DEMO_TOPUP_DEVICES,
  DEMO_TOPUP_PRESETS,
} from "./demo-catalog";
import {
  arrival,
  dayIndexAt,
  HOUR,
  MAX_LINES,
  MINUTE,
  SALES_PROFILE,
  type Sales,
  SECOND,
  type SeedContext,
  sampleIn,
  type Topup,
  type Wristband,
} from "./demo-model";
import { type Random, WeightedTable } from "./random";

/**
 * Money: top-ups (paid, with their bonus; failed and pending ones), crew courtesy, withdrawals at
 * refund desks (all of a released wristband's balance), then one chronological pass over them and
 * the sales, so every wristband's balances follow its records (the ledger identity).
 */

type Scheduled =
  | {
      t: number;
      kind: "topup";
      w: number;
      amount: number;
      method: "card" | "cash" | "online";
      device: string | null;
    }
  | { t: number; kind: "courtesy"; w: number; amount: number }
  | { t: number; kind: "withdraw"; w: number; fraction: number; release: boolean };

/** Weights of the top-up presets (20, 30, 50, 100 €). */
const PRESET_WEIGHTS = [6, 10, 40, 44];
const presetTable = new WeightedTable(
  DEMO_TOPUP_PRESETS.map((p, i) => [p, PRESET_WEIGHTS[i] ?? 10] as const),
);
const voluntaryMethod = new WeightedTable<"card" | "cash" | "online">([
  ["card", 50],
  ["cash", 25],
  ["online", 25],
]);
const autoMethod = new WeightedTable<"card" | "cash" | "online">([
  ["card", 50],
  ["cash", 20],
  ["online", 30],
]);

const stationDevice = (r: Random, method: string) =>
  method === "online" ? null : r.pick(DEMO_TOPUP_DEVICES);

/** The balance movements each wristband makes on its own, in time order (sales come later). */
function scheduleMovements(ctx: SeedContext, wristbands: Wristband[]): Scheduled[] {
  const { now, startedDays, pastDays } = ctx;
  const r = ctx.random.money;
  const scheduled: Scheduled[] = [];
  wristbands.forEach((w, i) => {
    if (w.flagged) return;
    const alive = (t: number) => t >= w.createdAt && t < w.activeUntil && t <= now;
    if (w.ticket < 0) {
      const t = w.createdAt + Math.floor(r.float(5 * SECOND, 60 * SECOND));
      const method = r.chance(0.6) ? "card" : "cash";
      if (alive(t))
        scheduled.push({
          t,
          kind: "topup",
          w: i,
          amount: presetTable.pick(r),
          method,
          device: r.pick(DEMO_TOPUP_DEVICES),
        });
    } else if (w.pair || r.chance(0.35)) {
      const t = w.createdAt + Math.floor(r.float(MINUTE, 20 * MINUTE));
      const method = voluntaryMethod.pick(r);
      const amount = w.pair ? 5000 : presetTable.pick(r);
      if (alive(t))
        scheduled.push({ t, kind: "topup", w: i, amount, method, device: stationDevice(r, method) });
    }
    if (w.pair) {
      const t = w.activeUntil - Math.floor(r.float(MINUTE, 5 * MINUTE));
      if (alive(t))
        scheduled.push({
          t,
          kind: "topup",
          w: i,
          amount: 3000,
          method: "card",
          device: r.pick(DEMO_TOPUP_DEVICES),
        });
    }
    for (const d of startedDays) {
      if (!(w.dayMask & (1 << d.index)) || !r.chance(0.12)) continue;
      const t = sampleIn(r, d, SALES_PROFILE, w.createdAt, Math.min(w.activeUntil, now));
      if (t === null) continue;
      const method = voluntaryMethod.pick(r);
      scheduled.push({
        t,
        kind: "topup",
        w: i,
        amount: presetTable.pick(r),
        method,
        device: stationDevice(r, method),
      });
    }
    // Online top-ups from the app in the morning, between two day windows (they belong to the
    // previous day by the day rule).
    for (const d of startedDays) {
      if (d.index === 0 || !(w.dayMask & (1 << d.index)) || !r.chance(0.06)) continue;
      const t = d.start - Math.floor(r.float(10 * MINUTE, 5 * HOUR));
      if (alive(t))
        scheduled.push({
          t,
          kind: "topup",
          w: i,
          amount: presetTable.pick(r),
          method: "online",
          device: null,
        });
    }
    if (w.crew) {
      const first = w.createdAt + Math.floor(r.float(10 * SECOND, 60 * SECOND));
      if (alive(first)) scheduled.push({ t: first, kind: "courtesy", w: i, amount: DEMO_CREW_COURTESY });
      for (const d of startedDays) {
        if (d.start <= w.createdAt) continue;
        const t = d.start + Math.floor(r.float(0, 3 * HOUR));
        if (alive(t)) scheduled.push({ t, kind: "courtesy", w: i, amount: DEMO_CREW_COURTESY });
      }
    }
    if (w.status === "released") {
      scheduled.push({ t: w.statusAt, kind: "withdraw", w: i, fraction: 1, release: true });
    } else if (w.status === "active" && w.singleDay < 0) {
      for (const d of pastDays) {
        if (!r.chance(0.04)) continue;
        const t = d.end - Math.floor(r.float(10 * MINUTE, 4 * HOUR));
        if (alive(t))
          scheduled.push({ t, kind: "withdraw", w: i, fraction: r.float(0.3, 1), release: false });
      }
    }
  });
  scheduled.sort((a, b) => a.t - b.t);
  return scheduled;
}

/**
 * Replays the scheduled movements and the sales in time order: sets each sale's promo/balance
 * spent, tops a wristband up just before a sale it cannot pay, grants bonuses within the cap, and
 * returns every top-up record. Balances and updatedAt of the wristbands are left final.
 */
export function seedMoney(
  ctx: SeedContext,
  wristbands: Wristband[],
  sales: Sales,
  ticketCount: number,
): Topup[] {
  const { now, days } = ctx;
  const bonusRules: BonusRule[] = ctx.bonusRules;
  const r = ctx.random.money;
  const dayIndexFor = (t: number): number => dayIndexAt(days, t);
  const scheduled = scheduleMovements(ctx, wristbands);
  const topups: Topup[] = [];
  const granted = new Int32Array(ticketCount + wristbands.length);
  // Last balance movement of each person (a ticket's wristbands share one): top-ups placed "just
  // before" a sale never go back past it, so the bonus cap is consumed in time order.
  const lastMove = new Float64Array(granted.length).fill(Number.NEGATIVE_INFINITY);
  let paidSeen = 0;
  let failedSoFar = 0;
  const lastArrival = new Float64Array(wristbands.length).fill(Number.NEGATIVE_INFINITY);
  const cap = DEMO_EVENT.bonusCapPerPerson;
  const touch = (w: number, t: number, created: number) => {
    const person = wristbands[w].person;
    if (t > lastMove[person]) lastMove[person] = t;
    if (created > lastArrival[w]) lastArrival[w] = created;
  };
  const push = (rec: Omit<Topup, "id">) => {
    topups.push({ id: "", ...rec });
  };

  /** A paid top-up and its bonus; now and then preceded by a failed attempt, or left pending (app). */
  const paidTopup = (
    w: number,
    t: number,
    amount: number,
    method: "card" | "cash" | "online",
    device: string | null,
    voluntary: boolean,
  ) => {
    const wb = wristbands[w];
    /** A payment that moved no money: failed, or still pending in the app. */
    const unsettled = (status: "failed" | "pending", occurred: number, created: number) =>
      push({
        w,
        direction: "topup",
        amount,
        prev: wb.balance,
        next: wb.balance,
        method,
        nature: "paid",
        status,
        ruleId: null,
        device,
        occurred,
        created,
      });
    paidSeen++;
    // A few card/app payments fail and are retried (at least two in any demo).
    if (method !== "cash" && (r.chance(0.012) || (failedSoFar < 2 && paidSeen % 20 === 0))) {
      const tf = t - Math.floor(r.float(15 * SECOND, 90 * SECOND));
      if (tf > lastMove[wb.person] && tf >= wb.createdAt) {
        failedSoFar++;
        const created = Math.min(now, tf + Math.floor(r.next() * 5 * SECOND));
        unsettled("failed", tf, created);
        touch(w, tf, created);
      }
    }
    const created =
      method === "online"
        ? Math.min(now, t + Math.floor(r.next() * 5 * SECOND))
        : arrival(now, r, t, 0.015, 20 * SECOND);
    if (voluntary && method === "online" && r.chance(0.005)) {
      unsettled("pending", t, created);
      touch(w, t, created);
      return;
    }
    push({
      w,
      direction: "topup",
      amount,
      prev: wb.balance,
      next: wb.balance + amount,
      method,
      nature: "paid",
      status: "completed",
      ruleId: null,
      device,
      occurred: t,
      created,
    });
    wb.balance += amount;
    touch(w, t, created);
    const rules = validRules(bonusRules, new Date(t));
    if (rules.length === 0) return;
    const quote = quoteLine(rules, amount, remainingCap(cap, granted[wb.person], []));
    if (quote.bonus_amount <= 0 || !quote.rule) return;
    push({
      w,
      direction: "topup",
      amount: quote.bonus_amount,
      prev: wb.promo,
      next: wb.promo + quote.bonus_amount,
      method: "promo",
      nature: "bonus",
      status: "completed",
      ruleId: quote.rule.id,
      device,
      occurred: t,
      created,
    });
    wb.promo += quote.bonus_amount;
    granted[wb.person] += quote.bonus_amount;
  };

  const amountFor = (shortfall: number, minimal: boolean): number => {
    const fitting = DEMO_TOPUP_PRESETS.filter((p) => p >= shortfall);
    if (fitting.length === 0) return Math.ceil(shortfall / 5000) * 5000;
    if (minimal) return fitting[0];
    return r.weighted(
      fitting,
      fitting.map((p) => PRESET_WEIGHTS[DEMO_TOPUP_PRESETS.indexOf(p)] ?? 10),
    );
  };

  const saleTotal = (i: number): number => {
    let total = 0;
    const base = i * MAX_LINES;
    for (let j = 0; j < sales.lines[i]; j++) {
      total +=
        (sales.qty[base + j] - sales.incl[base + j]) * DEMO_PRODUCTS[sales.product[base + j]].unitPrice;
    }
    return total;
  };

  const processSale = (i: number) => {
    const w = sales.w[i];
    const wb = wristbands[w];
    const t = sales.occurred[i];
    if (sales.status[i] !== 0 || sales.method[i] !== 0) {
      touch(w, t, Number.NEGATIVE_INFINITY);
      return;
    }
    let total = saleTotal(i);
    const funds = () => Math.max(0, wb.promo) + wb.balance;
    if (sales.allowNegative[i]) {
      // Offline terminal, stale balance: make the basket exceed what the wristband holds.
      const base = i * MAX_LINES;
      let top = 0;
      for (let j = 1; j < sales.lines[i]; j++) {
        if (
          DEMO_PRODUCTS[sales.product[base + j]].unitPrice >
          DEMO_PRODUCTS[sales.product[base + top]].unitPrice
        )
          top = j;
      }
      while (total <= funds() && sales.qty[base + top] < 12) {
        sales.qty[base + top]++;
        total = saleTotal(i);
      }
    } else if (total > funds()) {
      const method = autoMethod.pick(r);
      const lo = Math.max(lastMove[wb.person] + 1, wb.createdAt, days[dayIndexFor(t)].start);
      const at = Math.min(t, Math.max(lo, t - Math.floor(r.float(20 * SECOND, 8 * MINUTE))));
      paidTopup(w, at, amountFor(total - funds(), wb.flagged), method, stationDevice(r, method), false);
    }
    const promoSpent = Math.min(Math.max(0, wb.promo), total);
    sales.promoSpent[i] = promoSpent;
    sales.balanceSpent[i] = total - promoSpent;
    wb.promo -= promoSpent;
    wb.balance -= total - promoSpent;
    touch(w, t, sales.created[i]);
  };

  const processScheduled = (e: Scheduled) => {
    const wb = wristbands[e.w];
    if (e.kind === "topup") {
      paidTopup(e.w, e.t, e.amount, e.method, e.device, true);
    } else if (e.kind === "courtesy") {
      const created = Math.min(now, e.t + Math.floor(r.next() * 5 * SECOND));
      push({
        w: e.w,
        direction: "topup",
        amount: e.amount,
        prev: wb.promo,
        next: wb.promo + e.amount,
        method: "promo",
        nature: "courtesy",
        status: "completed",
        ruleId: null,
        device: DEMO_COURTESY_DEVICE,
        occurred: e.t,
        created,
      });
      wb.promo += e.amount;
      touch(e.w, e.t, created);
    } else {
      const amount = e.release ? wb.balance : Math.floor((wb.balance * e.fraction) / 100) * 100;
      if (amount <= 0) return;
      const created = Math.min(now, e.t + Math.floor(r.next() * 10 * SECOND));
      push({
        w: e.w,
        direction: "withdraw",
        amount,
        prev: wb.balance,
        next: wb.balance - amount,
        method: r.chance(0.6) ? "cash" : "card",
        nature: "paid",
        status: "completed",
        ruleId: null,
        device: r.pick(DEMO_REFUND_DEVICES),
        occurred: e.t,
        created,
      });
      wb.balance -= amount;
      touch(e.w, e.t, created);
    }
  };

  let si = 0;
  let ei = 0;
  while (si < sales.n || ei < scheduled.length) {
    if (ei < scheduled.length && (si >= sales.n || scheduled[ei].t <= sales.occurred[si]))
      processScheduled(scheduled[ei++]);
    else processSale(si++);
  }

  // A wristband row changes when its status changes and when a balance movement reaches the server.
  wristbands.forEach((w, i) => {
    w.updatedAt = Math.max(
      w.createdAt,
      Number.isFinite(w.statusAt) ? w.statusAt : w.createdAt,
      lastArrival[i],
    );
  });
  return topups;
}
