import type { Checkin, Topup, Transaction } from "@/lib/contract";
import type { Db } from "@/lib/db/db";

/**
 * Mirror records built by tests and benchmarks: a sale, a top-up or a scan of one device, with the
 * fields the console reads and plain values for the rest. Ids are 24 hex digits from a counter.
 */

let counter = 0;
const nextId = (prefix: string) => `${prefix}${(++counter).toString(16).padStart(24 - prefix.length, "0")}`;

export interface RecordAt {
  device: string;
  day: string;
  occurred: Date | string;
  /** Default: when it happened (an online terminal). */
  created?: Date | string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

export function saleRecord(
  at: RecordAt & { total?: number; type?: "cart" | "return"; id?: string },
): Transaction {
  const total = at.total ?? 500;
  const tax = Math.round((total * 21) / 121);
  return {
    object: "transaction",
    id: at.id ?? nextId("5a1e"),
    status: "completed",
    type: at.type ?? "cart",
    payment_method: "wristband",
    total,
    total_base: total - tax,
    total_tax: tax,
    tax_breakdown: [{ tax_type: "VAT", rate: 21, base: total - tax, amount: tax }],
    items: [
      {
        product_id: "prd_beer",
        name: "Beer",
        quantity: 1,
        unit_price: total,
        charged_amount: total,
        included_quantity: 0,
      },
    ],
    wristband_id: "wb_1",
    day_id: at.day,
    device_id: at.device,
    occurred_at: iso(at.occurred),
    created_at: iso(at.created ?? at.occurred),
  } as Transaction;
}

export function topupRecord(at: RecordAt & { amount?: number; direction?: "topup" | "withdraw" }): Topup {
  return {
    object: "topup",
    id: nextId("70b0"),
    direction: at.direction ?? "topup",
    amount: at.amount ?? 2000,
    previous_balance: 0,
    new_balance: 0,
    payment_method: "cash",
    nature: "paid",
    status: "completed",
    wristband_id: "wb_1",
    day_id: at.day,
    device_id: at.device,
    occurred_at: iso(at.occurred),
    created_at: iso(at.created ?? at.occurred),
  } as Topup;
}

export function scanRecord(at: RecordAt): Checkin {
  return {
    object: "checkin",
    id: nextId("5ca0"),
    kind: "access_check",
    allowed: true,
    reason: null,
    ticket_code: null,
    wristband_id: "wb_1",
    zone: null,
    device_id: at.device,
    day_id: at.day,
    occurred_at: iso(at.occurred),
    created_at: iso(at.created ?? at.occurred),
  } as Checkin;
}

/** An event with consecutive days (12:00 → 06:00 local in Europe/Madrid, given as UTC instants). */
export async function insertEventDays(db: Db, days: { id: string; starts_at: string; ends_at: string }[]) {
  await db.query(
    `insert into m_event (id, name, currency, time_zone, starts_at, ends_at, environment, synced_at)
     values ('evt_1', 'Fest', 'EUR', 'Europe/Madrid', $1, $2, 'test', now()) on conflict do nothing`,
    [days[0]!.starts_at, days[days.length - 1]!.ends_at],
  );
  for (const [i, d] of days.entries())
    await db.query(
      "insert into m_days (id, name, date, starts_at, ends_at) values ($1, $2, $3, $4, $5) on conflict do nothing",
      [d.id, `Day ${i + 1}`, d.starts_at.slice(0, 10), d.starts_at, d.ends_at],
    );
}
