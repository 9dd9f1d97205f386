import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SalesSummary, Topup, Transaction } from "../../lib/contract/resources";
import { newId } from "../ids";
import { canonicalSummary, type SummaryData, summaryFromLists, walkPages } from "../testing/read-model";
import { createTestApi, type TestApi } from "../testing/test-api";

/**
 * The sales summary is the reconciliation checksum: for every day and for the whole event it must
 * equal what a client gets by summing the paginated lists (completed records only, by day_id).
 * Property: over random sales and top-ups written straight into the store.
 */

const READ_SCOPES = ["cashless.read", "reports.read"] as const;

let api: TestApi;
let fullKey: string;
let restrictedKey: string;
let dayIds: string[];
let days: { id: string; starts_at: Date; ends_at: Date }[];
let wristbandIds: string[];

beforeAll(async () => {
  api = await createTestApi({ scale: 0.02 });
  const catalog = api.services.catalog;
  days = catalog.rows.days;
  dayIds = days.map((d) => d.id);
  wristbandIds = (await api.db.query<{ id: string }>("select id from wristbands order by id")).map(
    (r) => r.id,
  );
  fullKey = (await api.createKey({ scopes: [...READ_SCOPES], rate_limits: { read: 100000 } })).key;
  const types = catalog.rows.ticketTypes.filter((t) => t.name === "4-Day Pass" || t.name === "Day Ticket");
  restrictedKey = (
    await api.createKey({
      scopes: [...READ_SCOPES],
      restrictions: { ticket_type_ids: types.map((t) => t.id), day_ids: [dayIds[0], dayIds[2]] },
      rate_limits: { read: 100000 },
    })
  ).key;
});

afterAll(async () => {
  await api?.close();
});

/** Summary of the key for `day` (null: whole event) must equal the sums of the key's lists. */
async function checkSummaryAgainstLists(key: string, day: string | null, limit = 200): Promise<SummaryData> {
  const filter = day ? `?day_id=${day}` : "";
  const res = await api.get<SalesSummary>(`/v1/reports/sales-summary${filter}`, key);
  expect(res.status, res.text).toBe(200);
  expect(res.body.object).toBe("sales_summary");
  expect(res.body.day_id).toBe(day);
  const sales = (await walkPages<Transaction>(api, `/v1/transactions${filter}`, key, limit)).items;
  const topups = (await walkPages<Topup>(api, `/v1/topups${filter}`, key, limit)).items;
  const summary = canonicalSummary(res.body);
  expect(summary, `summary${filter}`).toEqual(summaryFromLists(sales, topups));
  return summary;
}

/** The whole event is the sum of its days. */
function expectWholeIsSumOfDays(whole: SummaryData, perDay: SummaryData[]) {
  const sum = (f: (s: SummaryData) => number) => perDay.reduce((a, s) => a + f(s), 0);
  expect(whole.sales.count).toBe(sum((s) => s.sales.count));
  expect(whole.sales.total).toBe(sum((s) => s.sales.total));
  expect(whole.sales.total_base).toBe(sum((s) => s.sales.total_base));
  expect(whole.sales.total_tax).toBe(sum((s) => s.sales.total_tax));
  expect(whole.topups.amount).toBe(sum((s) => s.topups.amount));
  expect(whole.withdrawals.amount).toBe(sum((s) => s.withdrawals.amount));
  expect(whole.bonuses.amount).toBe(sum((s) => s.bonuses.amount));
}

describe("the seeded event", () => {
  it("summary per day and whole equals the sums of the lists, for a full and a restricted key", async () => {
    for (const key of [fullKey, restrictedKey]) {
      const whole = await checkSummaryAgainstLists(key, null);
      const visibleDays = key === fullKey ? dayIds : [dayIds[0], dayIds[2]];
      const perDay = [];
      for (const day of visibleDays) perDay.push(await checkSummaryAgainstLists(key, day));
      expectWholeIsSumOfDays(whole, perDay);
      if (key === fullKey) expect(whole.sales.count).toBeGreaterThan(100);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Random data.

const PRODUCTS = [
  { id: "5eed00000000000000000101", name: "Beer 33 cl", tax_type: "VAT", rate: 21 },
  { id: "5eed00000000000000000108", name: "Water 50 cl", tax_type: "VAT", rate: 10 },
  { id: "5eed00000000000000000201", name: "Classic burger", tax_type: "VAT", rate: 10 },
  { id: "5eed00000000000000000301", name: "Festival T-shirt", tax_type: "VAT", rate: 21 },
  { id: "a1a1a1a1a1a1a1a1a1a1a1a1", name: "Bread", tax_type: "VAT", rate: 4 },
  { id: "b2b2b2b2b2b2b2b2b2b2b2b2", name: "Island snack", tax_type: "IGIC", rate: 7 },
  { id: "c3c3c3c3c3c3c3c3c3c3c3c3", name: "Half-rate item", tax_type: "VAT", rate: 5.5 },
  { id: "d4d4d4d4d4d4d4d4d4d4d4d4", name: "Exempt ticket upgrade", tax_type: "EXEMPT", rate: 0 },
] as const;

const itemArb = fc.record({
  product: fc.constantFrom(...PRODUCTS),
  quantity: fc.integer({ min: 1, max: 6 }),
  included: fc.integer({ min: 0, max: 3 }),
  unitPrice: fc.integer({ min: 0, max: 6000 }),
});

const placementArb = fc.record({
  day: fc.nat(),
  wristband: fc.nat(),
  /** Fraction of the day's window; outside [0, 1) is an offline clock before or after it. */
  at: fc.double({ min: -0.2, max: 1.2, noNaN: true }),
  device: fc.constantFrom("bar-01", "food-02", null),
});

const saleArb = fc.record({
  status: fc.oneof(
    { weight: 5, arbitrary: fc.constant("completed" as const) },
    { weight: 1, arbitrary: fc.constantFrom("pending" as const, "cancelled" as const) },
  ),
  type: fc.oneof({ weight: 6, arbitrary: fc.constant("cart" as const) }, fc.constant("return" as const)),
  paymentMethod: fc.constantFrom("wristband" as const, "card" as const, "cash" as const),
  items: fc.array(itemArb, { minLength: 0, maxLength: 5 }),
  placement: placementArb,
});

const topupArb = fc
  .record({
    direction: fc.constantFrom("topup" as const, "withdraw" as const),
    nature: fc.constantFrom("paid" as const, "bonus" as const, "courtesy" as const, "transfer" as const),
    paymentMethod: fc.constantFrom(
      "card" as const,
      "cash" as const,
      "online" as const,
      "promo" as const,
      "transfer" as const,
    ),
    status: fc.oneof(
      { weight: 5, arbitrary: fc.constant("completed" as const) },
      { weight: 1, arbitrary: fc.constantFrom("pending" as const, "failed" as const) },
    ),
    amount: fc.integer({ min: 1, max: 250000 }),
    previousBalance: fc.integer({ min: -5000, max: 100000 }),
    placement: placementArb,
  })
  // A withdrawal never carries a bonus (decisions: "Withdraw: no bonus").
  .filter((t) => !(t.direction === "withdraw" && t.nature === "bonus"));

type SaleInput = typeof saleArb extends fc.Arbitrary<infer T> ? T : never;
type TopupInput = typeof topupArb extends fc.Arbitrary<infer T> ? T : never;

function place(p: SaleInput["placement"]) {
  const day = days[p.day % days.length];
  const span = new Date(day.ends_at).getTime() - new Date(day.starts_at).getTime();
  return {
    day_id: day.id,
    wristband_id: wristbandIds[p.wristband % wristbandIds.length],
    device_id: p.device,
    occurred_at: new Date(new Date(day.starts_at).getTime() + Math.floor(p.at * span)).toISOString(),
    created_at: new Date().toISOString(),
  };
}

/** A sale as the store holds it: charged = (quantity − included) × unit price, taxes per rate. */
function toSaleRecord(s: SaleInput) {
  const sign = s.type === "return" ? -1 : 1;
  const items = s.items.map((i) => {
    const included = Math.min(i.included, i.quantity);
    return {
      product_id: i.product.id,
      name: i.product.name,
      quantity: sign * i.quantity,
      unit_price: i.unitPrice,
      charged_amount: sign * (i.quantity - included) * i.unitPrice,
      included_quantity: included,
    };
  });
  const taxes = new Map<string, { tax_type: string; rate: number; base: number; amount: number }>();
  s.items.forEach((i, k) => {
    const key = `${i.product.tax_type}/${i.product.rate}`;
    const line = taxes.get(key) ?? { tax_type: i.product.tax_type, rate: i.product.rate, base: 0, amount: 0 };
    line.base += items[k].charged_amount;
    taxes.set(key, line);
  });
  const tax_breakdown = [...taxes.values()].map((t) => {
    const gross = t.base;
    const amount = Math.round((gross * t.rate) / (100 + t.rate));
    return { ...t, base: gross - amount, amount };
  });
  const total = items.reduce((a, i) => a + i.charged_amount, 0);
  const total_tax = tax_breakdown.reduce((a, t) => a + t.amount, 0);
  return {
    id: newId(),
    status: s.status,
    type: s.type,
    payment_method: s.paymentMethod,
    total,
    total_base: total - total_tax,
    total_tax,
    tax_breakdown,
    items,
    ...place(s.placement),
  };
}

function toTopupRecord(t: TopupInput) {
  const delta = t.direction === "topup" ? t.amount : -t.amount;
  return {
    id: newId(),
    direction: t.direction,
    amount: t.amount,
    previous_balance: t.previousBalance,
    new_balance: t.previousBalance + delta,
    payment_method: t.paymentMethod,
    nature: t.nature,
    status: t.status,
    ...place(t.placement),
  };
}

async function replaceMoneyRecords(
  sales: ReturnType<typeof toSaleRecord>[],
  topups: ReturnType<typeof toTopupRecord>[],
) {
  await api.db.query("delete from sales");
  await api.db.query("delete from topups");
  await api.db.query(
    `insert into sales (id, status, type, payment_method, total, total_base, total_tax, tax_breakdown, items,
       wristband_id, day_id, device_id, occurred_at, created_at)
     select id, status, type, payment_method, total, total_base, total_tax, tax_breakdown, items,
       wristband_id, day_id, device_id, occurred_at, created_at
     from jsonb_to_recordset($1::jsonb) as x(id text, status text, type text, payment_method text, total int,
       total_base int, total_tax int, tax_breakdown jsonb, items jsonb, wristband_id text, day_id text,
       device_id text, occurred_at timestamptz, created_at timestamptz)`,
    [JSON.stringify(sales)],
  );
  await api.db.query(
    `insert into topups (id, direction, amount, previous_balance, new_balance, payment_method, nature, status,
       wristband_id, day_id, device_id, occurred_at, created_at)
     select id, direction, amount, previous_balance, new_balance, payment_method, nature, status,
       wristband_id, day_id, device_id, occurred_at, created_at
     from jsonb_to_recordset($1::jsonb) as x(id text, direction text, amount int, previous_balance int,
       new_balance int, payment_method text, nature text, status text, wristband_id text, day_id text,
       device_id text, occurred_at timestamptz, created_at timestamptz)`,
    [JSON.stringify(topups)],
  );
}

describe("random sales and top-ups", () => {
  it("summary per day and whole equals the sums of the paginated lists and of the records written", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(saleArb, { maxLength: 60 }),
        fc.array(topupArb, { maxLength: 50 }),
        async (saleInputs, topupInputs) => {
          const sales = saleInputs.map(toSaleRecord);
          const topups = topupInputs.map(toTopupRecord);
          await replaceMoneyRecords(sales, topups);

          // Full key: the summary equals the lists' sums, and both equal the records written.
          const perDay: SummaryData[] = [];
          for (const day of dayIds) {
            const summary = await checkSummaryAgainstLists(fullKey, day, 7);
            expect(summary).toEqual(
              summaryFromLists(
                sales.filter((s) => s.day_id === day) as unknown as Transaction[],
                topups.filter((t) => t.day_id === day) as unknown as Topup[],
              ),
            );
            perDay.push(summary);
          }
          const whole = await checkSummaryAgainstLists(fullKey, null, 13);
          expect(whole).toEqual(
            summaryFromLists(sales as unknown as Transaction[], topups as unknown as Topup[]),
          );
          expectWholeIsSumOfDays(whole, perDay);

          // A key restricted by ticket type and day: the same identity over what it can list.
          const restrictedDays: SummaryData[] = [];
          for (const day of [dayIds[0], dayIds[2]]) {
            restrictedDays.push(await checkSummaryAgainstLists(restrictedKey, day, 5));
          }
          expectWholeIsSumOfDays(await checkSummaryAgainstLists(restrictedKey, null, 11), restrictedDays);
        },
      ),
      { numRuns: 15 },
    );
  });
});
