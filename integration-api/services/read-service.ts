import type { Clock } from "../../lib/contract/clock";
import type {
  Checkin,
  SalesSummary,
  Ticket,
  Topup,
  TopupBonusQuote,
  Transaction,
  Wristband,
} from "../../lib/contract/resources";
import { iso, isoOrNull } from "../../lib/db/rows";
import { ApiError } from "../errors";
import type { Db, Queryable } from "../store/db";
import {
  type PageRequest,
  recordsStore,
  type SaleRow,
  type ScanRow,
  type TicketRow,
  type TopupRow,
  type WristbandRow,
} from "../store/records-store";
import { salesSummaryRows } from "../store/reports-store";
import type { Visibility } from "../store/sql";
import type { NewTopupRow } from "../store/write-store";
import { type BonusRule, quoteLine, remainingCap, validRules } from "./bonus-rules";
import type { Catalog } from "./catalog-service";

export interface Page<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

function toList<R extends { id: string }, T>(
  page: { data: R[]; hasMore: boolean; nextCursor: string | null },
  map: (row: R) => T,
): Page<T> {
  return { object: "list", data: page.data.map(map), has_more: page.hasMore, next_cursor: page.nextCursor };
}

/** The read side of the API: scope-filtered queries mapped to the contract's resources. */
export class ReadService {
  constructor(
    private readonly db: Db,
    private readonly catalog: Catalog,
    private readonly clock: Clock,
  ) {}

  toTicket(row: TicketRow, v: Visibility): Ticket {
    const type = this.catalog.typeById.get(row.ticket_type_id)!;
    return {
      object: "ticket",
      id: row.id,
      code: row.code,
      status: row.status,
      ticket_type: { id: type.id, name: type.name },
      attendee: {
        name: row.attendee_name,
        email: row.attendee_email,
        document:
          row.document_type && row.document_number
            ? { type: row.document_type, last4: row.document_number.slice(-4) }
            : null,
      },
      valid_days: this.catalog.dayRefs(row.valid_day_ids, v),
      extra_zones: this.catalog.zoneRefs(row.extra_zone_ids),
      wristband:
        row.wristband_id && row.wristband_nfc ? { id: row.wristband_id, nfc: row.wristband_nfc } : null,
      checked_in_at: isoOrNull(row.checked_in_at),
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  }

  toWristband(row: WristbandRow, v: Visibility): Wristband {
    const type = row.ticket_type_id ? this.catalog.typeById.get(row.ticket_type_id) : undefined;
    return {
      object: "wristband",
      id: row.id,
      nfc: row.nfc,
      uhf: row.uhf,
      status: row.status,
      balance: row.balance,
      promo_balance: row.promo_balance,
      attendee: { name: row.attendee_name, anonymous: row.ticket_id === null },
      ticket: row.ticket_code && type ? { code: row.ticket_code, ticket_type: type.name } : null,
      allowed_zones: this.catalog.zoneRefs(row.zone_ids),
      valid_days: this.catalog.visibleDayIds(row.valid_day_ids, v),
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  }

  toTransaction(row: SaleRow): Transaction {
    return {
      object: "transaction",
      id: row.id,
      status: row.status,
      type: row.type,
      payment_method: row.payment_method,
      total: row.total,
      total_base: row.total_base,
      total_tax: row.total_tax,
      tax_breakdown: row.tax_breakdown.map((t) => ({
        tax_type: t.tax_type,
        rate: t.rate,
        base: t.base,
        amount: t.amount,
      })),
      items: row.items.map((i) => ({
        product_id: i.product_id,
        name: i.name,
        quantity: i.quantity,
        unit_price: i.unit_price,
        charged_amount: i.charged_amount,
        included_quantity: i.included_quantity,
      })),
      wristband_id: row.wristband_id,
      day_id: row.day_id,
      device_id: row.device_id,
      occurred_at: iso(row.occurred_at),
      created_at: iso(row.created_at),
    };
  }

  toTopup(row: TopupRow | NewTopupRow): Topup {
    return {
      object: "topup",
      id: row.id,
      direction: row.direction,
      amount: row.amount,
      previous_balance: row.previous_balance,
      new_balance: row.new_balance,
      payment_method: row.payment_method,
      nature: row.nature,
      status: row.status,
      wristband_id: row.wristband_id,
      day_id: row.day_id,
      device_id: row.device_id,
      occurred_at: iso(row.occurred_at),
      created_at: iso(row.created_at),
    };
  }

  toCheckin(row: ScanRow): Checkin {
    return {
      object: "checkin",
      id: row.id,
      kind: row.kind,
      allowed: row.allowed,
      reason: row.reason,
      ticket_code: row.ticket_code,
      wristband_id: row.wristband_id,
      zone: row.zone_id ? (this.catalog.zoneById.get(row.zone_id) ?? null) : null,
      device_id: row.device_id,
      day_id: row.day_id,
      occurred_at: iso(row.occurred_at),
      created_at: iso(row.created_at),
    };
  }

  async listTickets(v: Visibility, q: { status?: string; updated_since?: Date } & PageQuery) {
    const page = await recordsStore.listTickets(
      this.db,
      v,
      { status: q.status, updatedSince: q.updated_since },
      pageRequest(q),
    );
    return toList(page, (row) => this.toTicket(row, v));
  }

  async getTicket(v: Visibility, code: string): Promise<Ticket> {
    const row = await recordsStore.ticketByCode(this.db, v, code);
    if (!row) throw new ApiError("ticket_not_found", "No ticket with this code.", "code");
    return this.toTicket(row, v);
  }

  async listWristbands(v: Visibility, q: { status?: string; updated_since?: Date } & PageQuery) {
    const page = await recordsStore.listWristbands(
      this.db,
      v,
      { status: q.status, updatedSince: q.updated_since },
      pageRequest(q),
    );
    return toList(page, (row) => this.toWristband(row, v));
  }

  async findWristband(v: Visibility, code: string): Promise<WristbandRow> {
    const row = await recordsStore.wristbandByCode(this.db, v, code);
    if (!row) throw new ApiError("wristband_not_found", "No wristband with this NFC or UHF code.", "code");
    return row;
  }

  async getWristband(v: Visibility, code: string): Promise<Wristband> {
    return this.toWristband(await this.findWristband(v, code), v);
  }

  async listSales(v: Visibility, q: { day_id?: string; since?: Date } & PageQuery, wristbandCode?: string) {
    const dayId = this.catalog.requireDay(q.day_id, v);
    const wristbandId =
      wristbandCode === undefined ? undefined : (await this.findWristband(v, wristbandCode)).id;
    const page = await recordsStore.listSales(
      this.db,
      v,
      { dayId, since: q.since, wristbandId },
      pageRequest(q),
    );
    return toList(page, (row) => this.toTransaction(row));
  }

  async listTopups(v: Visibility, q: { day_id?: string; since?: Date; direction?: string } & PageQuery) {
    const dayId = this.catalog.requireDay(q.day_id, v);
    const page = await recordsStore.listTopups(
      this.db,
      v,
      { dayId, since: q.since, direction: q.direction },
      pageRequest(q),
    );
    return toList(page, (row) => this.toTopup(row));
  }

  async listCheckins(v: Visibility, q: { day_id?: string; since?: Date; zone_id?: string } & PageQuery) {
    const dayId = this.catalog.requireDay(q.day_id, v);
    const zoneId = this.catalog.requireZone(q.zone_id);
    const page = await recordsStore.listScans(this.db, v, { dayId, since: q.since, zoneId }, pageRequest(q));
    return toList(page, (row) => this.toCheckin(row));
  }

  async salesSummary(v: Visibility, q: { day_id?: string }): Promise<SalesSummary> {
    const dayId = this.catalog.requireDay(q.day_id, v) ?? null;
    const rows = await salesSummaryRows(this.db, v, dayId);
    const flow = (direction: "topup" | "withdraw") => {
      const lines = rows.flows.filter((f) => f.direction === direction);
      return {
        count: lines.reduce((s, l) => s + l.count, 0),
        amount: lines.reduce((s, l) => s + l.amount, 0),
        by_payment_method: lines.map((l) => ({
          payment_method: l.payment_method,
          count: l.count,
          amount: l.amount,
        })),
      };
    };
    return {
      object: "sales_summary",
      day_id: dayId,
      currency: this.catalog.event.currency,
      sales: rows.sales,
      by_payment_method: rows.byPaymentMethod,
      by_tax: rows.byTax,
      by_product: rows.byProduct,
      topups: flow("topup"),
      withdrawals: flow("withdraw"),
      bonuses: rows.bonuses,
      generated_at: this.clock().toISOString(),
    };
  }

  /** Bonus quote; with `code`, the person's cap minus bonuses granted and pending is applied. */
  async quote(
    v: Visibility,
    q: { amounts: number[]; code?: string; pending_rules?: string[] },
    now = this.clock(),
  ): Promise<TopupBonusQuote> {
    const rules = await this.bonusRules();
    const byId = new Map(rules.map((r) => [r.id, r]));
    const pending = (q.pending_rules ?? []).map((id) => {
      const rule = byId.get(id);
      if (!rule) throw new ApiError("invalid_parameter", `No bonus rule with id ${id}.`, "pending_rules");
      return rule;
    });
    let cap: number | null = null;
    if (q.code !== undefined) {
      const granted = await this.bonusGrantedTo(v, q.code);
      if (granted === null)
        throw new ApiError("invalid_parameter", "No ticket or wristband with this code.", "code");
      cap = remainingCap(this.catalog.event.bonus_cap_per_person, granted, pending);
    }
    const valid = validRules(rules, now);
    return { object: "topup_bonus_quote", data: q.amounts.map((amount) => quoteLine(valid, amount, cap)) };
  }

  /** `q`: the caller's transaction when there is one (PGlite runs one statement stream at a time). */
  async bonusRules(q: Queryable = this.db): Promise<BonusRule[]> {
    const rows = await q.query<
      Omit<BonusRule, "valid_from" | "valid_until"> & { valid_from: string; valid_until: string }
    >("select id, name, valid_from, valid_until, tiers from bonus_rules order by id");
    return rows.map((r) => ({
      ...r,
      valid_from: new Date(r.valid_from),
      valid_until: new Date(r.valid_until),
    }));
  }

  /**
   * Bonus already granted to the person behind a ticket or wristband code (the ticket and all its
   * wristbands; an anonymous wristband alone), or null when the code is unknown or out of scope.
   */
  async bonusGrantedTo(v: Visibility, code: string): Promise<number | null> {
    const ticket = await recordsStore.ticketByCode(this.db, v, code);
    let wristbandIds: string[];
    if (ticket) {
      wristbandIds = (
        await this.db.query<{ id: string }>("select id from wristbands where ticket_id = $1", [ticket.id])
      ).map((r) => r.id);
    } else {
      const wristband = await recordsStore.wristbandByCode(this.db, v, code);
      if (!wristband) return null;
      wristbandIds = wristband.ticket_id
        ? (
            await this.db.query<{ id: string }>("select id from wristbands where ticket_id = $1", [
              wristband.ticket_id,
            ])
          ).map((r) => r.id)
        : [wristband.id];
    }
    if (wristbandIds.length === 0) return 0;
    const [row] = await this.db.query<{ granted: number }>(
      `select coalesce(sum(amount), 0)::float8 as granted from topups
       where wristband_id = any($1::text[]) and nature = 'bonus' and direction = 'topup' and status = 'completed'`,
      [wristbandIds],
    );
    return row.granted;
  }
}

export interface PageQuery {
  limit?: number;
  starting_after?: string;
}

function pageRequest(q: PageQuery): PageRequest {
  return { limit: q.limit ?? 50, startingAfter: q.starting_after };
}
