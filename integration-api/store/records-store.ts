import type { Queryable } from "./db";
import {
  lookupCode,
  Params,
  recordVisible,
  sameCodeSql,
  sqlInstant,
  ticketVisible,
  toPage,
  type Visibility,
  wristbandVisible,
} from "./sql";

/** Read queries of the service's records. Every list is ordered by id and filtered by the key's scope. */

export interface PageRequest {
  limit: number;
  startingAfter?: string;
}

export interface TicketRow {
  id: string;
  code: string;
  status: "active" | "used" | "inactive";
  ticket_type_id: string;
  attendee_name: string;
  attendee_email: string;
  document_type: string | null;
  document_number: string | null;
  valid_day_ids: string[];
  extra_zone_ids: string[];
  wristband_id: string | null;
  wristband_nfc: string | null;
  checked_in_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WristbandRow {
  id: string;
  nfc: string;
  uhf: string | null;
  status: "active" | "blocked" | "lost" | "released" | "pending_review";
  balance: number;
  promo_balance: number;
  attendee_name: string | null;
  ticket_id: string | null;
  ticket_code: string | null;
  ticket_type_id: string | null;
  zone_ids: string[];
  valid_day_ids: string[];
  created_at: string;
  updated_at: string;
}

export interface SaleRow {
  id: string;
  status: "completed" | "pending" | "cancelled";
  type: "cart" | "return";
  payment_method: "wristband" | "card" | "cash";
  total: number;
  total_base: number;
  total_tax: number;
  tax_breakdown: { tax_type: string; rate: number; base: number; amount: number }[];
  items: {
    product_id: string;
    name: string;
    quantity: number;
    unit_price: number;
    charged_amount: number;
    included_quantity: number;
  }[];
  wristband_id: string;
  day_id: string;
  device_id: string | null;
  occurred_at: string;
  created_at: string;
}

export interface TopupRow {
  id: string;
  direction: "topup" | "withdraw";
  amount: number;
  previous_balance: number;
  new_balance: number;
  payment_method: "card" | "cash" | "online" | "promo" | "transfer";
  nature: "paid" | "bonus" | "courtesy" | "transfer";
  status: "completed" | "pending" | "failed";
  wristband_id: string;
  day_id: string;
  device_id: string | null;
  occurred_at: string;
  created_at: string;
}

export interface ScanRow {
  id: string;
  kind: "check_in" | "access_check";
  allowed: boolean;
  reason: string | null;
  ticket_code: string | null;
  wristband_id: string | null;
  zone_id: string | null;
  device_id: string | null;
  day_id: string;
  occurred_at: string;
  created_at: string;
}

/** SQL condition: the wristband aliased `w` has the code in `placeholder` as NFC or UHF, any case. */
export function wristbandCodeSql(w: string, placeholder: string): string {
  return `(${sameCodeSql(`${w}.nfc`, placeholder)} or ${sameCodeSql(`${w}.uhf`, placeholder)})`;
}

const TICKET_COLUMNS = `t.id, t.code, t.status, t.ticket_type_id, t.attendee_name, t.attendee_email, t.document_type,
  t.document_number, t.valid_day_ids, t.extra_zone_ids, t.wristband_id, tw.nfc as wristband_nfc, t.checked_in_at,
  t.created_at, t.updated_at`;
const TICKET_FROM = "tickets t left join wristbands tw on tw.id = t.wristband_id";

const WRISTBAND_COLUMNS = `w.id, w.nfc, w.uhf, w.status, w.balance, w.promo_balance, w.attendee_name, w.ticket_id,
  wt.code as ticket_code, wt.ticket_type_id, w.zone_ids, w.valid_day_ids, w.created_at, w.updated_at`;
const WRISTBAND_FROM = "wristbands w left join tickets wt on wt.id = w.ticket_id";

const SALE_COLUMNS = `r.id, r.status, r.type, r.payment_method, r.total, r.total_base, r.total_tax, r.tax_breakdown,
  r.items, r.wristband_id, r.day_id, r.device_id, r.occurred_at, r.created_at`;
const TOPUP_COLUMNS = `r.id, r.direction, r.amount, r.previous_balance, r.new_balance, r.payment_method, r.nature,
  r.status, r.wristband_id, r.day_id, r.device_id, r.occurred_at, r.created_at`;
const SCAN_COLUMNS = `r.id, r.kind, r.allowed, r.reason, r.ticket_code, r.wristband_id, r.zone_id, r.device_id,
  r.day_id, r.occurred_at, r.created_at`;

async function page<T extends { id: string }>(
  db: Queryable,
  select: string,
  from: string,
  alias: string,
  conditions: string[],
  p: Params,
  req: PageRequest,
) {
  const where = [...conditions];
  if (req.startingAfter) where.push(`${alias}.id > ${p.add(req.startingAfter)}`);
  const sql = `select ${select} from ${from} where ${where.join(" and ") || "true"}
    order by ${alias}.id limit ${p.add(req.limit + 1)}`;
  return toPage(await db.query<T>(sql, p.values), req.limit);
}

export const recordsStore = {
  listTickets(
    db: Queryable,
    v: Visibility,
    filter: { status?: string; updatedSince?: Date },
    req: PageRequest,
  ) {
    const p = new Params();
    const where = [ticketVisible(p, v)];
    if (filter.status) where.push(`t.status = ${p.add(filter.status)}`);
    if (filter.updatedSince) where.push(`t.updated_at >= ${p.add(sqlInstant(filter.updatedSince))}`);
    return page<TicketRow>(db, TICKET_COLUMNS, TICKET_FROM, "t", where, p, req);
  },

  /** By code, whatever its case (an exact match first, for codes stored before case mattered). */
  async ticketByCode(db: Queryable, v: Visibility, code: string): Promise<TicketRow | undefined> {
    const wanted = lookupCode(code);
    if (wanted === null) return undefined;
    const p = new Params();
    const c = p.add(wanted);
    const sql = `select ${TICKET_COLUMNS} from ${TICKET_FROM} where ${sameCodeSql("t.code", c)}
      and ${ticketVisible(p, v)} order by (t.code = ${c}) desc, t.id limit 1`;
    return (await db.query<TicketRow>(sql, p.values))[0];
  },

  listWristbands(
    db: Queryable,
    v: Visibility,
    filter: { status?: string; updatedSince?: Date },
    req: PageRequest,
  ) {
    const p = new Params();
    const where = [wristbandVisible(p, v)];
    if (filter.status) where.push(`w.status = ${p.add(filter.status)}`);
    if (filter.updatedSince) where.push(`w.updated_at >= ${p.add(sqlInstant(filter.updatedSince))}`);
    return page<WristbandRow>(db, WRISTBAND_COLUMNS, WRISTBAND_FROM, "w", where, p, req);
  },

  /** By NFC or UHF code, whatever its case (an exact match first). */
  async wristbandByCode(db: Queryable, v: Visibility, code: string): Promise<WristbandRow | undefined> {
    const wanted = lookupCode(code);
    if (wanted === null) return undefined;
    const p = new Params();
    const c = p.add(wanted);
    const sql = `select ${WRISTBAND_COLUMNS} from ${WRISTBAND_FROM}
      where ${wristbandCodeSql("w", c)} and ${wristbandVisible(p, v)}
      order by (w.nfc = ${c} or w.uhf is not distinct from ${c}) desc, w.id limit 1`;
    return (await db.query<WristbandRow>(sql, p.values))[0];
  },

  listSales(
    db: Queryable,
    v: Visibility,
    filter: { dayId?: string; since?: Date; wristbandId?: string },
    req: PageRequest,
  ) {
    const p = new Params();
    const where = [recordVisible(p, v)];
    if (filter.dayId) where.push(`r.day_id = ${p.add(filter.dayId)}`);
    if (filter.since) where.push(`r.occurred_at >= ${p.add(sqlInstant(filter.since))}`);
    if (filter.wristbandId) where.push(`r.wristband_id = ${p.add(filter.wristbandId)}`);
    return page<SaleRow>(db, SALE_COLUMNS, "sales r", "r", where, p, req);
  },

  listTopups(
    db: Queryable,
    v: Visibility,
    filter: { dayId?: string; since?: Date; direction?: string },
    req: PageRequest,
  ) {
    const p = new Params();
    const where = [recordVisible(p, v)];
    if (filter.dayId) where.push(`r.day_id = ${p.add(filter.dayId)}`);
    if (filter.since) where.push(`r.occurred_at >= ${p.add(sqlInstant(filter.since))}`);
    if (filter.direction) where.push(`r.direction = ${p.add(filter.direction)}`);
    return page<TopupRow>(db, TOPUP_COLUMNS, "topups r", "r", where, p, req);
  },

  listScans(
    db: Queryable,
    v: Visibility,
    filter: { dayId?: string; since?: Date; zoneId?: string },
    req: PageRequest,
  ) {
    const p = new Params();
    const where = [recordVisible(p, v)];
    if (filter.dayId) where.push(`r.day_id = ${p.add(filter.dayId)}`);
    if (filter.since) where.push(`r.occurred_at >= ${p.add(sqlInstant(filter.since))}`);
    if (filter.zoneId) where.push(`r.zone_id = ${p.add(filter.zoneId)}`);
    return page<ScanRow>(db, SCAN_COLUMNS, "scans r", "r", where, p, req);
  },
};
