import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LedgerReport } from "../../lib/contract/admin";
import * as r from "../../lib/contract/resources";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { ledgerDifferences } from "../store/ledger-store";
import { expectError, expectOk } from "../testing/expect-api";
import { createTestApi, TEST_ADMIN_TOKEN, type TestApi } from "../testing/test-api";
import { type DemoCatalog, demoCatalog, poster, uniqueCode } from "../testing/write-api";
import { nowOrigin, type SaleLine } from "./write-service";

/**
 * Money rules of the write side: concurrent top-ups serialise on the wristband, sales spend
 * promo_balance first, only offline sales may overdraw, and every balance equals its records
 * (the ledger identity verify-ledger checks). Runs on the real clock with one bonus rule of its
 * own, valid around now, in place of the demo's.
 */

let api: TestApi;
let cat: DemoCatalog;
let post: ReturnType<typeof poster>;
let key: string;

const BONUS = { min_amount: 2000, bonus_amount: 500 };
const CAP = 2500;
let ruleId: string;

beforeAll(async () => {
  api = await createTestApi();
  cat = await demoCatalog(api.db);
  post = poster(api);
  key = (
    await api.createKey({
      scopes: ["tickets.write", "checkins.write", "cashless.write", "cashless.read"],
      activate: true,
      rate_limits: { read: 100_000, write: 100_000, checkin: 100_000, access: 100_000 },
    })
  ).key;
  // The only rule in play, whatever the clock says: the demo's rules are removed.
  await api.db.query("delete from bonus_rules");
  ruleId = newId(new Date());
  const hour = 60 * 60 * 1000;
  await api.db.query(
    "insert into bonus_rules (id, name, valid_from, valid_until, tiers) values ($1, $2, $3, $4, $5::jsonb)",
    [
      ruleId,
      "Test rule",
      new Date(Date.now() - hour),
      new Date(Date.now() + 24 * hour),
      JSON.stringify([BONUS]),
    ],
  );
  const [event] = await api.db.query<{ bonus_cap_per_person: number }>(
    "select bonus_cap_per_person from event",
  );
  expect(event.bonus_cap_per_person).toBe(CAP);
});

afterAll(async () => {
  await api?.close();
});

const TicketList = r.ListEnvelope(r.Ticket);

async function freshWristband() {
  const ticket = expectOk(
    await post("/v1/tickets", key, {
      tickets: [
        {
          ticket_type_id: cat.type("4-Day Pass").id,
          attendee: { name: "Ada Lovelace", email: "ada@example.com" },
          valid_days: cat.days.map((d) => d.id),
        },
      ],
    }),
    TicketList,
    201,
  ).data[0];
  const nfc = uniqueCode("NFC");
  const checkedIn = expectOk(
    await post(`/v1/tickets/${ticket.code}/check-in`, key, { wristband: { nfc } }),
    r.Ticket,
  );
  return { nfc, wristbandId: checkedIn.wristband!.id };
}

async function balances(wristbandId: string) {
  const [row] = await api.db.query<{ balance: number; promo_balance: number }>(
    "select balance, promo_balance from wristbands where id = $1",
    [wristbandId],
  );
  return row;
}

const line = (total: number): SaleLine => ({
  product_id: "5eed00000000000000000101",
  name: "Beer 33 cl",
  quantity: 1,
  unit_price: total,
  included_quantity: 0,
  tax_type: "VAT",
  rate: 21,
});

function sale(
  wristbandId: string,
  total: number,
  options: {
    online?: boolean;
    paymentMethod?: "wristband" | "card" | "cash";
    status?: "completed" | "pending";
  } = {},
) {
  return api.db.transaction((tx) =>
    api.services.writes.recordSale(
      tx,
      {
        wristbandId,
        lines: [line(total)],
        paymentMethod: options.paymentMethod ?? "wristband",
        online: options.online ?? true,
        status: options.status,
      },
      { ...nowOrigin(api.services.clock()), deviceId: "bar-1" },
    ),
  );
}

async function saleRow(id: string) {
  const [row] = await api.db.query<{ total: number; promo_spent: number; balance_spent: number }>(
    "select total, promo_spent, balance_spent from sales where id = $1",
    [id],
  );
  return row;
}

async function expectApiError(promise: Promise<unknown>, code: string) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).code).toBe(code);
}

const topup = (nfc: string, amount: number, extra: Record<string, unknown> = {}) =>
  post("/v1/topups", key, { code: nfc, amount, payment_method: "card", ...extra });

// --------------------------------------------------------------------------------------------

describe("concurrent top-ups on one wristband", () => {
  it("20 in parallel end with balance + Σ amounts and 20 records whose balances chain", async () => {
    const { nfc, wristbandId } = await freshWristband();
    expectOk(await topup(nfc, 777), r.Topup, 201);
    const amounts = Array.from({ length: 20 }, (_, i) => 100 + i * 91); // 100..1829: below every tier
    const responses = await Promise.all(amounts.map((amount) => topup(nfc, amount)));
    const records = responses.map((res) => expectOk(res, r.Topup, 201));
    const total = amounts.reduce((s, a) => s + a, 0);
    expect(await balances(wristbandId)).toEqual({ balance: 777 + total, promo_balance: 0 });

    const stored = await api.db.query<{
      id: string;
      amount: number;
      previous_balance: number;
      new_balance: number;
    }>("select id, amount, previous_balance, new_balance from topups where wristband_id = $1", [wristbandId]);
    expect(stored).toHaveLength(21);
    const chain = stored.sort((a, b) => a.previous_balance - b.previous_balance);
    expect(chain[0]).toMatchObject({ previous_balance: 0, new_balance: 777 });
    for (let i = 1; i < chain.length; i++) {
      expect(chain[i].previous_balance).toBe(chain[i - 1].new_balance);
      expect(chain[i].new_balance).toBe(chain[i].previous_balance + chain[i].amount);
    }
    expect(chain[chain.length - 1].new_balance).toBe(777 + total);
    // Each answer is its own record, with the balances it saw.
    expect(new Set(records.map((t) => t.id)).size).toBe(20);
    for (const t of records) {
      expect(chain.find((c) => c.id === t.id)).toMatchObject({
        amount: t.amount,
        previous_balance: t.previous_balance,
        new_balance: t.new_balance,
      });
    }
  });

  it("20 parallel withdrawals never overdraw: exactly the covered ones succeed", async () => {
    const { nfc, wristbandId } = await freshWristband();
    expectOk(await topup(nfc, 1000), r.Topup, 201);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => topup(nfc, 150, { direction: "withdraw", payment_method: "cash" })),
    );
    const ok = responses.filter((res) => res.status === 201);
    expect(ok).toHaveLength(6);
    for (const res of responses.filter((x) => x.status !== 201)) {
      expectError(res, 409, "conflict_error", "insufficient_balance");
    }
    expect(await balances(wristbandId)).toEqual({ balance: 100, promo_balance: 0 });
  });
});

// --------------------------------------------------------------------------------------------

describe("sales", () => {
  it("spend promo_balance first, then balance", async () => {
    const { nfc, wristbandId } = await freshWristband();
    expectOk(await topup(nfc, 2000, { bonus_amount: 500, bonus_rule: ruleId }), r.Topup, 201);
    expect(await balances(wristbandId)).toEqual({ balance: 2000, promo_balance: 500 });

    const first = await sale(wristbandId, 300);
    expect(await saleRow(first)).toEqual({ total: 300, promo_spent: 300, balance_spent: 0 });
    expect(await balances(wristbandId)).toEqual({ balance: 2000, promo_balance: 200 });

    const second = await sale(wristbandId, 1000);
    expect(await saleRow(second)).toEqual({ total: 1000, promo_spent: 200, balance_spent: 800 });
    expect(await balances(wristbandId)).toEqual({ balance: 1200, promo_balance: 0 });

    // Paid by card or cash, or not completed: the wristband's balances do not move.
    await sale(wristbandId, 5000, { paymentMethod: "card" });
    await sale(wristbandId, 5000, { paymentMethod: "cash" });
    await sale(wristbandId, 700, { status: "pending" });
    expect(await balances(wristbandId)).toEqual({ balance: 1200, promo_balance: 0 });
  });

  it("online: refused with insufficient_balance when the balances do not cover it, nothing written", async () => {
    const { nfc, wristbandId } = await freshWristband();
    expectOk(await topup(nfc, 2000, { bonus_amount: 500, bonus_rule: ruleId }), r.Topup, 201);
    const [{ n: salesBefore }] = await api.db.query<{ n: number }>("select count(*)::int as n from sales");
    await expectApiError(sale(wristbandId, 2501), "insufficient_balance");
    expect(await balances(wristbandId)).toEqual({ balance: 2000, promo_balance: 500 });
    const [{ n: salesAfter }] = await api.db.query<{ n: number }>("select count(*)::int as n from sales");
    expect(salesAfter).toBe(salesBefore);
    // Exactly covered is fine.
    await sale(wristbandId, 2500);
    expect(await balances(wristbandId)).toEqual({ balance: 0, promo_balance: 0 });
  });

  it("offline: may leave balance negative (promo spent first); online refuses a non-active wristband", async () => {
    const { nfc, wristbandId } = await freshWristband();
    expectOk(await topup(nfc, 2000, { bonus_amount: 500, bonus_rule: ruleId }), r.Topup, 201);
    const id = await sale(wristbandId, 3000, { online: false });
    expect(await saleRow(id)).toEqual({ total: 3000, promo_spent: 500, balance_spent: 2500 });
    expect(await balances(wristbandId)).toEqual({ balance: -500, promo_balance: 0 });
    // A further offline sale goes deeper; an online one is refused.
    await sale(wristbandId, 100, { online: false });
    await expectApiError(sale(wristbandId, 1), "insufficient_balance");
    expect(await balances(wristbandId)).toEqual({ balance: -600, promo_balance: 0 });
    // A top-up onto the debt simply adds.
    const paid = expectOk(await topup(nfc, 1000), r.Topup, 201);
    expect(paid).toMatchObject({ previous_balance: -600, new_balance: 400 });

    await api.db.query("update wristbands set status = 'blocked' where id = $1", [wristbandId]);
    await expectApiError(sale(wristbandId, 100), "wristband_not_active");
    // An offline terminal did not know: its sale is still recorded.
    await sale(wristbandId, 100, { online: false });
    expect(await balances(wristbandId)).toEqual({ balance: 300, promo_balance: 0 });
  });
});

// --------------------------------------------------------------------------------------------

describe("a random day at the bar (property)", () => {
  type Op =
    | { kind: "topup"; amount: number }
    | { kind: "withdraw"; amount: number }
    | { kind: "sale"; total: number; online: boolean };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant("topup" as const), amount: fc.integer({ min: 1, max: 6000 }) }),
    fc.record({ kind: fc.constant("withdraw" as const), amount: fc.integer({ min: 1, max: 3000 }) }),
    fc.record({
      kind: fc.constant("sale" as const),
      total: fc.integer({ min: 1, max: 3000 }),
      online: fc.boolean(),
    }),
  );

  it("balances follow the rules (bonus, cap, promo first, no overdraft online) and the ledger holds", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        const { nfc, wristbandId } = await freshWristband();
        const model = { balance: 0, promo: 0, granted: 0 };
        for (const o of ops) {
          if (o.kind === "topup") {
            const bonus =
              o.amount >= BONUS.min_amount ? Math.min(BONUS.bonus_amount, CAP - model.granted) : 0;
            const res = await topup(
              nfc,
              o.amount,
              bonus > 0 ? { bonus_amount: bonus, bonus_rule: ruleId } : {},
            );
            expect(expectOk(res, r.Topup, 201)).toMatchObject({
              previous_balance: model.balance,
              new_balance: model.balance + o.amount,
            });
            model.balance += o.amount;
            model.promo += bonus;
            model.granted += bonus;
          } else if (o.kind === "withdraw") {
            const res = await topup(nfc, o.amount, { direction: "withdraw", payment_method: "cash" });
            if (o.amount > model.balance) {
              expectError(res, 409, "conflict_error", "insufficient_balance");
            } else {
              expectOk(res, r.Topup, 201);
              model.balance -= o.amount;
            }
          } else if (o.online && model.balance + model.promo < o.total) {
            await expectApiError(sale(wristbandId, o.total, { online: true }), "insufficient_balance");
          } else {
            await sale(wristbandId, o.total, { online: o.online });
            const fromPromo = Math.min(Math.max(model.promo, 0), o.total);
            model.promo -= fromPromo;
            model.balance -= o.total - fromPromo;
          }
          expect(await balances(wristbandId)).toEqual({ balance: model.balance, promo_balance: model.promo });
        }
        expect(model.granted).toBeLessThanOrEqual(CAP);
      }),
      { numRuns: 20 },
    );
    expect((await ledgerDifferences(api.db)).differences).toEqual([]);
  });
});

// --------------------------------------------------------------------------------------------

describe("the ledger identity", () => {
  const ledger = async () => {
    const res = await api.request("/admin/ledger", {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    return expectOk(res, LedgerReport);
  };

  it("holds after every write above", async () => {
    const { checked, differences } = await ledgerDifferences(api.db);
    expect(checked).toBeGreaterThan(100);
    expect(differences).toEqual([]);
    expect(await ledger()).toMatchObject({ ok: true, differences: [] });
    expect(api.errors).toEqual([]);
  });

  it("reports a corrupted balance or promo balance, and nothing else", async () => {
    const { nfc, wristbandId } = await freshWristband();
    expectOk(await topup(nfc, 2000, { bonus_amount: 500, bonus_rule: ruleId }), r.Topup, 201);
    try {
      await api.db.query("update wristbands set balance = balance + 1 where id = $1", [wristbandId]);
      expect((await ledgerDifferences(api.db)).differences).toEqual([
        {
          wristband_id: wristbandId,
          nfc,
          balance: 2001,
          expected_balance: 2000,
          promo_balance: 500,
          expected_promo_balance: 500,
        },
      ]);
      const report = await ledger();
      expect(report.ok).toBe(false);
      expect(report.differences.map((d) => d.wristband_id)).toEqual([wristbandId]);

      await api.db.query(
        "update wristbands set balance = balance - 1, promo_balance = promo_balance - 1 where id = $1",
        [wristbandId],
      );
      expect((await ledgerDifferences(api.db)).differences).toMatchObject([
        { wristband_id: wristbandId, promo_balance: 499, expected_promo_balance: 500 },
      ]);
      // A record changed behind the balance's back is a difference too.
      await api.db.query("update wristbands set promo_balance = promo_balance + 1 where id = $1", [
        wristbandId,
      ]);
      await api.db.query(
        "update topups set amount = amount + 5 where wristband_id = $1 and nature = 'paid' and id = (select min(id) from topups where wristband_id = $1)",
        [wristbandId],
      );
      expect((await ledgerDifferences(api.db)).differences).toMatchObject([
        { wristband_id: wristbandId, balance: 2000, expected_balance: 2005 },
      ]);
    } finally {
      await api.db.query(
        "update topups set amount = 2000 where wristband_id = $1 and nature = 'paid' and direction = 'topup'",
        [wristbandId],
      );
      await api.db.query("update wristbands set balance = 2000, promo_balance = 500 where id = $1", [
        wristbandId,
      ]);
    }
    expect((await ledgerDifferences(api.db)).differences).toEqual([]);
  });
});
