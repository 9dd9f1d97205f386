import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Wristband } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { forgetReviewPair, reviewPairs } from "./review";

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
});
afterAll(async () => {
  await db?.close();
});

function wb(id: string, nfc: string, ticket: string | null, balance: number): Wristband {
  return {
    object: "wristband",
    id,
    nfc,
    uhf: null,
    status: "pending_review",
    balance,
    promo_balance: 100,
    attendee: { name: ticket ? "Ana" : null, anonymous: !ticket },
    ticket: ticket ? { code: ticket, ticket_type: "Pass" } : null,
    allowed_zones: [],
    valid_days: [],
    created_at: "2026-07-10T20:00:00.000Z",
    updated_at: "2026-07-10T21:00:00.000Z",
  };
}

async function insert(w: Wristband, at: string) {
  await db.query(
    "insert into m_review_wristbands (id, nfc, ticket_code, status, updated_at, data) values ($1, $2, $3, $4, $5, $6::jsonb)",
    [w.id, w.nfc, w.ticket?.code ?? null, w.status, at, JSON.stringify(w)],
  );
}

describe("review queue", () => {
  it("groups pending wristbands by the ticket they compete for, oldest first, and forgets a resolved pair", async () => {
    await insert(wb("a1", "NFC-A1", "T-A", 500), "2026-07-10T22:00:00Z");
    await insert(wb("a2", "NFC-A2", "T-A", 300), "2026-07-10T22:05:00Z");
    await insert(wb("b1", "NFC-B1", "T-B", 0), "2026-07-10T21:00:00Z");
    await insert(wb("b2", "NFC-B2", "T-B", 0), "2026-07-10T21:30:00Z");
    const pairs = await reviewPairs(db);
    expect(pairs.map((p) => [p.ticket_code, p.since, p.members.map((m) => m.nfc)])).toEqual([
      ["T-B", "2026-07-10T21:00:00.000Z", ["NFC-B1", "NFC-B2"]],
      ["T-A", "2026-07-10T22:00:00.000Z", ["NFC-A1", "NFC-A2"]],
    ]);
    expect(pairs[1]!.attendee).toBe("Ana");
    await forgetReviewPair(db, "T-B", "b1");
    expect((await reviewPairs(db)).map((p) => p.ticket_code)).toEqual(["T-A"]);
  });
});
