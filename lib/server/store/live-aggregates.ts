import "server-only";
import type { Queryable } from "@/lib/db/db";

/**
 * Reads of the aggregate tables the mirror's triggers keep exact (migration 003): per day and
 * event-local hour, completed records only. Every figure of the live screens and of the night
 * reconciliation comes from here.
 */

export interface SalesHourRow {
  hour: string;
  count: number;
  total: number;
  total_base: number;
  total_tax: number;
}

export function salesHours(db: Queryable, dayId: string): Promise<SalesHourRow[]> {
  return db.query<SalesHourRow>(
    `select hour, count::float8 as count, total::float8 as total, total_base::float8 as total_base,
       total_tax::float8 as total_tax
     from a_sales_hour where day_id = $1 order by hour`,
    [dayId],
  );
}

export function salesPerDay(db: Queryable) {
  return db.query<{ day_id: string; count: number; total: number }>(
    "select day_id, sum(count)::float8 as count, sum(total)::float8 as total from a_sales_hour group by day_id",
  );
}

export function flowsPerDay(db: Queryable) {
  return db.query<{ day_id: string; direction: string; amount: number }>(
    "select day_id, direction, sum(amount)::float8 as amount from a_topups_hour group by day_id, direction",
  );
}

export interface FlowRow {
  hour: string;
  direction: string;
  payment_method: string;
  nature: string;
  count: number;
  amount: number;
}

/** Top-ups and withdrawals of a day by hour, direction, payment method and nature. */
export function flowHours(db: Queryable, dayId: string): Promise<FlowRow[]> {
  return db.query<FlowRow>(
    `select hour, direction, payment_method, nature, count::float8 as count, amount::float8 as amount
     from a_topups_hour where day_id = $1`,
    [dayId],
  );
}

export function lateSalesByDevice(db: Queryable, dayId: string) {
  return db.query<{ device_id: string; count: number; total: number; latest_created_at: string | null }>(
    `select device_id, count::float8 as count, total::float8 as total, latest_created_at
     from a_sales_late where day_id = $1 order by count desc, device_id`,
    [dayId],
  );
}

export function salesByProduct(db: Queryable, dayId: string) {
  return db.query<{ product_id: string; name: string; quantity: number; total: number }>(
    `select product_id, name, quantity::float8 as quantity, total::float8 as total
     from a_sales_product where day_id = $1 order by total desc, product_id`,
    [dayId],
  );
}

export function salesByDevice(db: Queryable, dayId: string) {
  return db.query<{ device_id: string; count: number; total: number }>(
    `select device_id, count::float8 as count, total::float8 as total
     from a_sales_device where day_id = $1 order by total desc, device_id`,
    [dayId],
  );
}

export function salesByPaymentMethod(db: Queryable, dayId: string) {
  return db.query<{ payment_method: string; count: number; total: number }>(
    `select payment_method, count::float8 as count, total::float8 as total
     from a_sales_payment where day_id = $1 order by total desc, payment_method`,
    [dayId],
  );
}

export function salesByTax(db: Queryable, dayId: string) {
  return db.query<{ tax_type: string; rate: number; base: number; tax: number }>(
    `select tax_type, rate::float8 as rate, base::float8 as base, tax::float8 as tax
     from a_sales_tax where day_id = $1 order by tax_type, rate`,
    [dayId],
  );
}

export function scanHours(db: Queryable, dayId: string) {
  return db.query<{ hour: string; zone_id: string; allowed: boolean; reason: string; count: number }>(
    "select hour, zone_id, allowed, reason, count::float8 as count from a_scans_hour where day_id = $1",
    [dayId],
  );
}

export function zones(db: Queryable) {
  return db.query<{ zone_id: string; name: string }>("select id as zone_id, name from m_zones order by name");
}

/** A day's paid top-ups per ticket type of the wristband's ticket (null: no ticket known for it). */
export function paidTopupsByTicketType(db: Queryable, dayId: string) {
  return db.query<{ ticket_type: string | null; count: number; amount: number }>(
    `select tt.name as ticket_type, sum(a.count)::float8 as count, sum(a.amount)::float8 as amount
     from a_topups_ticket_type a left join m_ticket_types tt on tt.id = a.ticket_type_id
     where a.day_id = $1
     group by 1 order by 3 desc, 1 nulls last`,
    [dayId],
  );
}

/** Per day: money loaded (paid, and bonus or courtesy), withdrawn, and spent from wristbands. */
export function balanceFlowsPerDay(db: Queryable) {
  return db.query<{
    day_id: string;
    paid_in: number;
    promo_in: number;
    withdrawn: number;
    wristband_sales: number;
  }>(
    `select d.id as day_id,
       coalesce((select sum(amount) from a_topups_hour h where h.day_id = d.id and h.direction = 'topup'
         and h.nature = 'paid'), 0)::float8 as paid_in,
       coalesce((select sum(amount) from a_topups_hour h where h.day_id = d.id and h.direction = 'topup'
         and h.nature in ('bonus', 'courtesy')), 0)::float8 as promo_in,
       coalesce((select sum(amount) from a_topups_hour h where h.day_id = d.id and h.direction = 'withdraw'
         and h.nature = 'paid'), 0)::float8 as withdrawn,
       coalesce((select sum(total) from a_sales_payment p where p.day_id = d.id
         and p.payment_method = 'wristband'), 0)::float8 as wristband_sales
     from m_days d order by d.starts_at`,
  );
}
