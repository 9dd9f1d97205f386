import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendBuffered } from "@/integration-api/simulator/offline-terminal";
import type { TestApi } from "@/integration-api/testing/test-api";
import type { Ticket, Topup, TopupBonusQuote, Wristband } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { seededRandom } from "@/lib/testing/fake-clock";
import { realApiWithClient } from "@/lib/testing/real-api-sync";
import { paidTopupsByType } from "@/lib/testing/topup-types";
import { SyncWorker } from "../sync/worker";

/**
 * Paid top-ups by ticket type against a recompute from the upstream's own records: the real
 * Integration API in-process (demo seed, pending_review pairs included), the real sync worker, and
 * between its cycles random top-ups, new pending_review pairs (an anonymous wristband checked in
 * offline for a ticket another gate had already accredited), online check-ins of anonymous
 * wristbands and reviews that keep one wristband of a pair the console had seen. Each wristband's
 * top-ups must count under the type of its own ticket, as the upstream's records say.
 */

let api: TestApi;
let db: Db;
let writeKey: string;
let worker: SyncWorker;

beforeAll(async () => {
  const real = await realApiWithClient();
  api = real.api;
  db = await openTestDashboardStore();
  worker = new SyncWorker({
    db,
    client: real.client,
    intervalMs: 30_000,
    log: { info() {}, warn() {}, error() {} },
  });
  writeKey = (
    await api.createKey({
      name: "test writes",
      scopes: ["*"],
      activate: true,
      rate_limits: { read: 100_000, write: 100_000, checkin: 100_000, access: 100_000 },
    })
  ).key;
}, 120_000);
afterAll(async () => {
  await db?.close();
  await api?.close();
});

const post = async (path: string, body: unknown) => {
  const res = await api.request(path, {
    method: "POST",
    headers: {
      authorization: `Bearer ${writeKey}`,
      "content-type": "application/json",
      "idempotency-key": crypto.randomUUID(),
    },
    body: JSON.stringify(body),
  });
  return res;
};

/** The split recomputed from the upstream's lists: each top-up's wristband, its own ticket, its type. */
async function upstreamSplit() {
  const [topups, wristbands, tickets] = await Promise.all([
    api.walk<Topup>("/v1/topups", writeKey),
    api.walk<Wristband>("/v1/wristbands", writeKey),
    api.walk<Ticket>("/v1/tickets", writeKey),
  ]);
  const typeOfCode = new Map(tickets.map((t) => [t.code, t.ticket_type.id]));
  const ticketOf = new Map(wristbands.map((w) => [w.id, w.ticket?.code ?? ""]));
  return paidTopupsByType(topups, (wristband) => typeOfCode.get(ticketOf.get(wristband) ?? "") ?? "");
}

const kept = () =>
  db.query<{ day_id: string; ticket_type_id: string; count: number; amount: number }>(
    `select day_id, ticket_type_id, count::float8 as count, amount::float8 as amount
     from a_topups_ticket_type order by day_id, ticket_type_id`,
  );

async function topUp(wristband: Wristband, amount: number) {
  const quote = await api.get<TopupBonusQuote>(
    `/v1/topup-bonuses/quote?amounts=${amount}&code=${encodeURIComponent(wristband.nfc)}`,
    writeKey,
  );
  const line = quote.body.data[0]!;
  const res = await post("/v1/topups", {
    code: wristband.nfc,
    amount,
    payment_method: "card",
    bonus_amount: line.bonus_amount,
    bonus_rule: line.rule?.id ?? null,
  });
  expect(res.status, res.text).toBe(201);
}

describe("paid top-ups by ticket type against the upstream's records", () => {
  it("count each wristband's top-ups under its own ticket's type, pending_review pairs included", async () => {
    const r = seededRandom(20261126);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
    let pairsMade = 0;
    let reviewed = 0;
    let linkedOnline = 0;
    let pendingSeen: Wristband[] = [];
    for (let round = 0; round < 6; round++) {
      const report = await worker.runOnce();
      expect(Object.entries(report.resources).filter(([, x]) => !x.ok)).toEqual([]);
      const expected = await upstreamSplit();
      expect(await kept(), `round ${round}`).toEqual(expected);
      // The seed's pairs and those made below: the second wristband of a pair has paid top-ups.
      pendingSeen = await api.walk<Wristband>("/v1/wristbands?status=pending_review", writeKey);
      if (round === 0) expect(pendingSeen.length).toBeGreaterThanOrEqual(2);

      const wristbands = await api.walk<Wristband>("/v1/wristbands?status=active", writeKey);
      const anonymous = wristbands.filter((w) => w.attendee.anonymous);
      const tickets = await api.walk<Ticket>("/v1/tickets", writeKey);
      // Top-ups on wristbands with and without a ticket.
      for (let i = 0; i < 8; i++) await topUp(pick(wristbands), 500 + Math.floor(r() * 40) * 100);
      // An anonymous wristband (topped up at a desk) checked in offline for a ticket another gate
      // had already accredited: both go to pending_review, its top-ups now belong to that ticket.
      const used = tickets.filter((t) => t.status === "used" && t.wristband);
      for (let attempt = 0; attempt < 2; attempt++) {
        const loose = anonymous.splice(Math.floor(r() * anonymous.length), 1)[0];
        if (!loose) break;
        await topUp(loose, 2500);
        const ticket = pick(used);
        const outcome = await sendBuffered(
          api.services,
          "gate-offline-9",
          {
            kind: "check_in",
            ticketCode: ticket.code,
            nfc: loose.nfc,
            uhf: loose.uhf ?? `UHF-${loose.nfc}`,
            at: new Date(),
          },
          new Date(),
        );
        if (outcome === "review_pair") pairsMade++;
      }
      // Another anonymous wristband checked in online for a ticket not used yet.
      const fresh = tickets.filter((t) => t.status === "active");
      const other = anonymous[Math.floor(r() * anonymous.length)];
      if (other && fresh.length && r() < 0.7) {
        await topUp(other, 1500);
        const res = await post(`/v1/tickets/${encodeURIComponent(pick(fresh).code)}/check-in`, {
          wristband: { nfc: other.nfc },
        });
        if (res.status === 200) linkedOnline++;
      }
      // A review keeps one wristband of a pair the console has seen pending (the other is blocked).
      if (round > 0 && pendingSeen.length && r() < 0.8) {
        const res = await post(`/v1/wristbands/${encodeURIComponent(pick(pendingSeen).nfc)}/review`, {
          decision: "keep",
        });
        if (res.status === 200) reviewed++;
      }
    }
    const last = await worker.runOnce();
    expect(Object.entries(last.resources).filter(([, x]) => !x.ok)).toEqual([]);
    const expected = await upstreamSplit();
    expect(await kept()).toEqual(expected);
    console.log(
      `top-ups by ticket type: ${pairsMade} new pending_review pairs, ${reviewed} reviews, ${linkedOnline} online check-ins of anonymous wristbands; ` +
        `${expected.length} day × type rows equal the upstream's records`,
    );
    // Every anonymous wristband of the small seed gets used up (the seed's own two pairs come on top).
    expect(pairsMade).toBeGreaterThanOrEqual(3);
    expect(reviewed).toBeGreaterThanOrEqual(2);
    // The rebuild from the mirror gives the same rows.
    await db.query("select live_recompute_topup_types()");
    expect(await kept()).toEqual(expected);
  }, 600_000);
});
