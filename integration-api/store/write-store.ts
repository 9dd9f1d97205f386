import type { Queryable } from "./db";
import {
  type SaleRow,
  type ScanRow,
  type TicketRow,
  type TopupRow,
  type WristbandRow,
  wristbandCodeSql,
} from "./records-store";
import { lookupCode, Params, sameCodeSql, ticketVisible, type Visibility, wristbandVisible } from "./sql";

/** Statements of the write side. Callers run them inside one transaction per request. */

export interface NewTicketRow {
  id: string;
  code: string;
  status: "active";
  ticket_type_id: string;
  attendee_name: string;
  attendee_email: string;
  document_type: string | null;
  document_number: string | null;
  birth_date: string | null;
  valid_day_ids: string[];
  extra_zone_ids: string[];
  wristband_id: null;
  checked_in_at: null;
  created_at: string;
  updated_at: string;
}

export interface NewWristbandRow {
  id: string;
  nfc: string;
  uhf: string | null;
  status: "active";
  balance: number;
  promo_balance: number;
  attendee_name: string | null;
  ticket_id: string | null;
  zone_ids: string[];
  valid_day_ids: string[];
  created_at: Date;
  updated_at: Date;
}

/** A record as a writer gives it: the read row's columns, with its instants as Dates. */
type Written<Row> = Omit<Row, "occurred_at" | "created_at"> & { occurred_at: Date; created_at: Date };

export type NewTopupRow = Written<TopupRow> & { bonus_rule_id: string | null };

/** promo_spent and balance_spent: how much of the total came out of each balance (never exposed). */
export type NewSaleRow = Written<SaleRow> & { promo_spent: number; balance_spent: number };

export type NewScanRow = Written<ScanRow> & { code: string | null };

const TICKET_LOCK = `select t.*, tw.nfc as wristband_nfc from tickets t left join wristbands tw on tw.id = t.wristband_id`;
const WRISTBAND_LOCK = `select w.*, wt.code as ticket_code, wt.ticket_type_id
  from wristbands w left join tickets wt on wt.id = w.ticket_id`;

export const writeStore = {
  async insertTickets(db: Queryable, rows: NewTicketRow[]): Promise<void> {
    await db.query("insert into tickets select * from json_populate_recordset(null::tickets, $1::json)", [
      JSON.stringify(rows),
    ]);
  },

  /**
   * Which of these codes a ticket already has, whatever the case (codes are letters, digits, "-"
   * and "_": lower-casing them is the same in JavaScript and SQL). Answers them lower-cased.
   */
  async existingCodes(db: Queryable, codes: string[]): Promise<Set<string>> {
    const rows = await db.query<{ code: string }>(
      "select lower(code) as code from tickets where lower(code) = any($1::text[])",
      [codes.map((c) => c.toLowerCase())],
    );
    return new Set(rows.map((r) => r.code));
  },

  /** The ticket with this code (any case) in the key's scope, locked for the transaction. */
  async lockTicket(db: Queryable, v: Visibility, code: string): Promise<TicketRow | undefined> {
    const wanted = lookupCode(code);
    if (wanted === null) return undefined;
    const p = new Params();
    const c = p.add(wanted);
    const sql = `${TICKET_LOCK} where ${sameCodeSql("t.code", c)} and ${ticketVisible(p, v)}
      order by (t.code = ${c}) desc, t.id limit 1 for update of t`;
    return (await db.query<TicketRow>(sql, p.values))[0];
  },

  async lockTicketById(db: Queryable, id: string): Promise<TicketRow | undefined> {
    return (await db.query<TicketRow>(`${TICKET_LOCK} where t.id = $1 for update of t`, [id]))[0];
  },

  async updateTicket(
    db: Queryable,
    id: string,
    changes: { status?: string; wristband_id?: string; checked_in_at?: Date; updated_at: Date },
  ): Promise<void> {
    await db.query(
      `update tickets set status = coalesce($2, status), wristband_id = coalesce($3, wristband_id),
         checked_in_at = coalesce($4, checked_in_at), updated_at = $5 where id = $1`,
      [
        id,
        changes.status ?? null,
        changes.wristband_id ?? null,
        changes.checked_in_at ?? null,
        changes.updated_at,
      ],
    );
  },

  /** Wristband by NFC or UHF (any case) in the key's scope (all wristbands without a visibility), locked. */
  async lockWristbandByCode(db: Queryable, v: Visibility, code: string): Promise<WristbandRow | undefined> {
    const wanted = lookupCode(code);
    if (wanted === null) return undefined;
    const p = new Params();
    const c = p.add(wanted);
    const sql = `${WRISTBAND_LOCK} where ${wristbandCodeSql("w", c)} and ${wristbandVisible(p, v)}
      order by (w.nfc = ${c} or w.uhf is not distinct from ${c}) desc, w.id limit 1 for update of w`;
    return (await db.query<WristbandRow>(sql, p.values))[0];
  },

  async lockWristbandById(db: Queryable, id: string): Promise<WristbandRow | undefined> {
    return (await db.query<WristbandRow>(`${WRISTBAND_LOCK} where w.id = $1 for update of w`, [id]))[0];
  },

  async lockWristbandsOfTicket(db: Queryable, ticketId: string): Promise<WristbandRow[]> {
    return db.query<WristbandRow>(`${WRISTBAND_LOCK} where w.ticket_id = $1 order by w.id for update of w`, [
      ticketId,
    ]);
  },

  async insertWristband(db: Queryable, row: NewWristbandRow): Promise<void> {
    await db.query(
      `insert into wristbands (id, nfc, uhf, status, balance, promo_balance, attendee_name, ticket_id, zone_ids,
         valid_day_ids, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        row.id,
        row.nfc,
        row.uhf,
        row.status,
        row.balance,
        row.promo_balance,
        row.attendee_name,
        row.ticket_id,
        row.zone_ids,
        row.valid_day_ids,
        row.created_at,
        row.updated_at,
      ],
    );
  },

  async linkWristband(
    db: Queryable,
    id: string,
    link: {
      ticket_id: string;
      attendee_name: string;
      zone_ids: string[];
      valid_day_ids: string[];
      updated_at: Date;
    },
  ): Promise<void> {
    await db.query(
      `update wristbands set ticket_id = $2, attendee_name = $3, zone_ids = $4, valid_day_ids = $5, updated_at = $6
       where id = $1`,
      [id, link.ticket_id, link.attendee_name, link.zone_ids, link.valid_day_ids, link.updated_at],
    );
  },

  async setWristbandStatus(db: Queryable, ids: string[], status: string, at: Date): Promise<void> {
    await db.query("update wristbands set status = $2, updated_at = $3 where id = any($1::text[])", [
      ids,
      status,
      at,
    ]);
  },

  /** Moves a balance by delta, returning the balance before and after (the caller holds the row lock). */
  async addToBalance(
    db: Queryable,
    id: string,
    column: "balance" | "promo_balance",
    delta: number,
    at: Date,
  ): Promise<{ previous: number; next: number }> {
    const [row] = await db.query<{ next: number }>(
      `update wristbands set ${column} = ${column} + $2, updated_at = $3 where id = $1 returning ${column} as next`,
      [id, delta, at],
    );
    return { previous: row.next - delta, next: row.next };
  },

  async insertTopup(db: Queryable, row: NewTopupRow): Promise<void> {
    await db.query("insert into topups select * from json_populate_record(null::topups, $1::json)", [
      JSON.stringify(row),
    ]);
  },

  async insertSale(db: Queryable, row: NewSaleRow): Promise<void> {
    await db.query("insert into sales select * from json_populate_record(null::sales, $1::json)", [
      JSON.stringify(row),
    ]);
  },

  async insertScan(db: Queryable, row: NewScanRow): Promise<void> {
    await db.query("insert into scans select * from json_populate_record(null::scans, $1::json)", [
      JSON.stringify(row),
    ]);
  },

  /** Bonus already granted (completed bonus records) to a set of wristbands. */
  async bonusGranted(db: Queryable, wristbandIds: string[]): Promise<number> {
    const [row] = await db.query<{ granted: number }>(
      `select coalesce(sum(amount), 0)::float8 as granted from topups
       where wristband_id = any($1::text[]) and nature = 'bonus' and direction = 'topup' and status = 'completed'`,
      [wristbandIds],
    );
    return row.granted;
  },
};
