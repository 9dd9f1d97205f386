import "server-only";
import type { Queryable } from "@/lib/db/db";

/**
 * Pages of mirrored records, newest `occurred_at` first, through the (day_id, occurred_at, id)
 * indexes: the "latest" lists of the live screens and the CSV exports read only these.
 */

/** Where the previous page stopped: (occurred_at, id) of its last row. */
export interface After {
  at: string;
  id: string;
}

function page<T>(
  db: Queryable,
  table: string,
  columns: string,
  options: { dayId: string; limit: number; after: After | null; where?: string; params?: unknown[] },
): Promise<T[]> {
  const params: unknown[] = [options.dayId, options.limit, ...(options.params ?? [])];
  let where = options.where ?? "";
  if (options.after) {
    params.push(options.after.at, options.after.id);
    where += ` and (occurred_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::text)`;
  }
  return db.query<T>(
    `select ${columns} from ${table} where day_id = $1${where} order by occurred_at desc, id desc limit $2`,
    params,
  );
}

export interface SaleRecord {
  id: string;
  status: string;
  type: string;
  payment_method: string;
  total: number;
  total_base: number;
  total_tax: number;
  items: { name: string; quantity: number }[];
  device_id: string | null;
  occurred_at: string;
  created_at: string;
}

export function salesPage(db: Queryable, dayId: string, limit: number, after: After | null) {
  return page<SaleRecord>(
    db,
    "m_sales",
    "id, status, type, payment_method, total, total_base, total_tax, items, device_id, occurred_at, created_at",
    { dayId, limit, after },
  );
}

export interface TopupRecord {
  id: string;
  direction: "topup" | "withdraw";
  amount: number;
  payment_method: string;
  nature: string;
  status: string;
  device_id: string | null;
  occurred_at: string;
  created_at: string;
}

export function topupsPage(
  db: Queryable,
  dayId: string,
  limit: number,
  after: After | null,
  direction: "topup" | "withdraw" | null,
) {
  return page<TopupRecord>(
    db,
    "m_topups",
    "id, direction, amount, payment_method, nature, status, device_id, occurred_at, created_at",
    { dayId, limit, after, ...(direction ? { where: " and direction = $3", params: [direction] } : {}) },
  );
}

export function latestDenials(db: Queryable, dayId: string, limit = 20) {
  return db.query<{
    id: string;
    kind: string;
    reason: string | null;
    zone: string | null;
    ticket_code: string | null;
    device_id: string | null;
    occurred_at: string;
  }>(
    `select s.id, s.kind, s.reason, z.name as zone, s.ticket_code, s.device_id, s.occurred_at
     from m_scans s left join m_zones z on z.id = s.zone_id
     where s.day_id = $1 and s.allowed = false order by s.occurred_at desc, s.id desc limit $2`,
    [dayId, limit],
  );
}
