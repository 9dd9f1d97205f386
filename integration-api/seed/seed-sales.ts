import { DEMO_PRODUCTS, DEMO_STANDS, type DemoStand, type StandKind } from "./demo-catalog";
import {
  arrival,
  dayIndexAt,
  HOUR,
  MAX_LINES,
  SALES_PROFILE,
  type Sales,
  SECOND,
  type SeedContext,
  zoneIndex,
} from "./demo-model";
import { WeightedTable } from "./random";
import type { SeededWristbands } from "./seed-wristbands";

const PRODUCT_INDEX = new Map<string, number>(DEMO_PRODUCTS.map((p, i) => [p.id, i]));

interface StandModel {
  stand: DemoStand;
  products: WeightedTable<number>;
  lines: WeightedTable<number>;
  qty: WeightedTable<number>;
}

/** Weights of 1, 2, 3, 4 lines per sale and of a quantity of 1, 2, 3, 4 per line, by kind of stand. */
const LINES_BY_KIND: Record<StandKind, number[]> = {
  bar: [84, 13, 3, 0],
  food: [68, 26, 6, 0],
  merch: [85, 15, 0, 0],
};
const QTY_BY_KIND: Record<StandKind, number[]> = {
  bar: [88, 10, 2, 0],
  food: [90, 9, 1, 0],
  merch: [95, 5, 0, 0],
};
const oneToFour = (weights: number[]) =>
  new WeightedTable(weights.flatMap((w, i) => (w > 0 ? [[i + 1, w] as const] : [])));

/**
 * Sales: times first (hourly profile inside the day windows, up to now), then who and what;
 * VIP welcome drinks and crew meals are included units; a handful of offline sales overdraw.
 * Who pays what is settled later by the money pass (seed-money.ts).
 */
export function seedSales(ctx: SeedContext, seeded: SeededWristbands): Sales {
  const { scale, now, days, startedDays } = ctx;
  const { wristbands, byCreated, createdSorted } = seeded;
  const rSales = ctx.random.sales;
  const dayIndexFor = (t: number): number => dayIndexAt(days, t);
  const nSalesTarget = Math.max(60, Math.round(50000 * scale));
  const slotEntries: [{ start: number; end: number }, number][] = [];
  for (const d of startedDays) {
    d.slotStarts.forEach((s, k) => {
      const e = Math.min(s + HOUR, d.end, now);
      if (e > s) slotEntries.push([{ start: s, end: e }, SALES_PROFILE[d.slotHours[k]] * ((e - s) / HOUR)]);
    });
  }
  const slotTable = new WeightedTable(slotEntries);
  const times = new Float64Array(nSalesTarget);
  for (let i = 0; i < nSalesTarget; i++) {
    const s = slotTable.pick(rSales);
    times[i] = Math.floor(s.start + rSales.next() * (s.end - s.start));
  }
  times.sort();

  const sales: Sales = {
    n: 0,
    occurred: new Float64Array(nSalesTarget),
    created: new Float64Array(nSalesTarget),
    w: new Int32Array(nSalesTarget),
    stand: new Uint8Array(nSalesTarget),
    status: new Uint8Array(nSalesTarget),
    method: new Uint8Array(nSalesTarget),
    lines: new Uint8Array(nSalesTarget),
    product: new Uint16Array(nSalesTarget * MAX_LINES),
    qty: new Uint8Array(nSalesTarget * MAX_LINES),
    incl: new Uint8Array(nSalesTarget * MAX_LINES),
    allowNegative: new Uint8Array(nSalesTarget),
    promoSpent: new Int32Array(nSalesTarget),
    balanceSpent: new Int32Array(nSalesTarget),
  };
  const stands: StandModel[] = DEMO_STANDS.map((stand) => ({
    stand,
    products: new WeightedTable(
      stand.products.map((p) => [PRODUCT_INDEX.get(p.productId)!, p.weight] as const),
    ),
    lines: oneToFour(LINES_BY_KIND[stand.kind]),
    qty: oneToFour(QTY_BY_KIND[stand.kind]),
  }));
  const standTable = new WeightedTable(stands.map((s, i) => [i, s.stand.weight] as const));
  const openBarTable = new WeightedTable(
    stands.flatMap((s, i) =>
      s.stand.kind === "bar" && !s.stand.requiresZone ? [[i, s.stand.weight] as const] : [],
    ),
  );
  const saleStatusTable = new WeightedTable([
    [0, 97],
    [1, 2],
    [2, 1],
  ] as const);
  const saleMethodTable = new WeightedTable([
    [0, 90],
    [1, 7],
    [2, 3],
  ] as const);

  const lastSaleAt = new Float64Array(wristbands.length).fill(Number.NEGATIVE_INFINITY);
  const lastSale = new Int32Array(wristbands.length).fill(-1);
  const firstSale = new Int32Array(wristbands.length).fill(-1);
  const welcomeUsed = new Uint8Array(wristbands.length);
  const mealUsed = new Uint8Array(wristbands.length);

  let ptr = 0;
  for (let k = 0; k < nSalesTarget; k++) {
    const r = rSales;
    const t = times[k];
    while (ptr < byCreated.length && createdSorted[ptr] <= t) ptr++;
    if (ptr === 0) continue;
    const dayIdx = dayIndexFor(t);
    const dayBit = 1 << dayIdx;
    let w = -1;
    for (let attempt = 0; attempt < 60; attempt++) {
      const c = byCreated[Math.floor(r.next() * ptr)];
      const wb = wristbands[c];
      if (t >= wb.saleUntil || !(wb.dayMask & dayBit) || t - lastSaleAt[c] < 5 * SECOND) continue;
      if (r.next() > wb.propensity) continue;
      w = c;
      break;
    }
    if (w < 0) continue;
    const wb = wristbands[w];
    let standIdx = standTable.pick(r);
    const required = stands[standIdx].stand.requiresZone;
    if (required && !(wb.zoneMask & (1 << zoneIndex(required)))) standIdx = openBarTable.pick(r);
    const model = stands[standIdx];
    const i = sales.n++;
    sales.occurred[i] = t;
    sales.w[i] = w;
    sales.stand[i] = standIdx;
    let status = saleStatusTable.pick(r);
    let method = saleMethodTable.pick(r);
    const nLines = model.lines.pick(r);
    const base = i * MAX_LINES;
    let count = 0;
    for (let attempt = 0; count < nLines && attempt < 12; attempt++) {
      const p = model.products.pick(r);
      let dup = false;
      for (let j = 0; j < count; j++) if (sales.product[base + j] === p) dup = true;
      if (dup) continue;
      sales.product[base + count] = p;
      sales.qty[base + count] = model.qty.pick(r);
      count++;
    }
    sales.lines[i] = count;
    // Included units: the VIP welcome drink and the crew meal, once per day each.
    if (wb.vip && model.stand.kind === "bar" && !(welcomeUsed[w] & dayBit)) {
      welcomeUsed[w] |= dayBit;
      sales.incl[base] = 1;
      status = 0;
      method = 0;
    } else if (wb.crew && model.stand.kind === "food" && !(mealUsed[w] & dayBit)) {
      mealUsed[w] |= dayBit;
      sales.incl[base] = 1;
      status = 0;
      method = 0;
    }
    sales.status[i] = status;
    sales.method[i] = method;
    sales.created[i] = arrival(now, r, t, 0.05, 20 * SECOND);
    lastSaleAt[w] = t;
    if (firstSale[w] < 0) firstSale[w] = i;
    lastSale[w] = i;
  }

  // A handful of wristbands pay offline with too little balance: some stay negative (their last
  // sale), others go negative and are topped up later (their first sale).
  const negCandidates = rSales.shuffle(
    wristbands
      .map((_, i) => i)
      .filter((i) => {
        const w = wristbands[i];
        return (
          w.status === "active" &&
          !w.crew &&
          !w.vip &&
          lastSale[i] >= 0 &&
          sales.occurred[lastSale[i]] <= now - HOUR
        );
      }),
  );
  const nNegEnd = Math.max(3, Math.round(8 * scale));
  const nNegMid = Math.max(2, Math.round(6 * scale));
  const makeNegative = (i: number) => {
    sales.status[i] = 0;
    sales.method[i] = 0;
    sales.allowNegative[i] = 1;
    const t = sales.occurred[i];
    sales.created[i] = t + Math.floor(rSales.float(HOUR, Math.min(6 * HOUR, now - t)));
  };
  let negEnd = 0;
  let negMid = 0;
  for (const w of negCandidates) {
    if (negEnd < nNegEnd) {
      wristbands[w].flagged = true;
      makeNegative(lastSale[w]);
      negEnd++;
    } else if (
      negMid < nNegMid &&
      firstSale[w] !== lastSale[w] &&
      sales.occurred[firstSale[w]] <= now - HOUR
    ) {
      wristbands[w].flagged = true;
      makeNegative(firstSale[w]);
      // Its last sale is paid with the wristband, so a top-up lands on the negative balance first.
      sales.status[lastSale[w]] = 0;
      sales.method[lastSale[w]] = 0;
      negMid++;
    }
  }
  return sales;
}
