import { randomInt } from "node:crypto";
import type {
  AccessCheck,
  AccessCheckRequest,
  CheckInRequest,
  CreateTopupRequest,
  NewTicket,
} from "../../lib/contract/requests";
import { MAX_TICKETS_PER_BATCH } from "../../lib/contract/requests";
import type { Ticket, Topup, Wristband } from "../../lib/contract/resources";
import { ApiError } from "../errors";
import { newId } from "../ids";
import type { Queryable } from "../store/db";
import type { TicketRow, WristbandRow } from "../store/records-store";
import { UNRESTRICTED, type Visibility } from "../store/sql";
import { type NewTicketRow, type NewTopupRow, writeStore } from "../store/write-store";
import { quoteLine, remainingCap, validRules } from "./bonus-rules";
import type { Catalog } from "./catalog-service";
import type { Page, ReadService } from "./read-service";

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Where and when a write happened: API writes are now; terminals bring their own (offline) times. */
export interface Origin {
  occurredAt: Date;
  createdAt: Date;
  deviceId: string | null;
}

export const nowOrigin = (now = new Date()): Origin => ({ occurredAt: now, createdAt: now, deviceId: null });

export interface SaleLine {
  product_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  included_quantity: number;
  tax_type: string;
  rate: number;
}

/**
 * The write side: every state transition and money movement of the decisions. Each method runs
 * inside the caller's transaction (`tx`), so a request's records, balances and idempotency answer
 * commit together or not at all.
 */
export class WriteService {
  constructor(
    private readonly catalog: Catalog,
    private readonly reads: ReadService,
  ) {}

  async createTickets(
    tx: Queryable,
    v: Visibility,
    tickets: NewTicket[],
    now = new Date(),
  ): Promise<Page<Ticket>> {
    if (tickets.length === 0) throw new ApiError("invalid_parameter", "Send at least one ticket.", "tickets");
    if (tickets.length > MAX_TICKETS_PER_BATCH) {
      throw new ApiError("batch_too_large", `At most ${MAX_TICKETS_PER_BATCH} tickets per call.`, "tickets");
    }
    for (const [i, t] of tickets.entries()) this.checkTicketReferences(t, i, v);

    const given = new Map<string, number>();
    tickets.forEach((t, i) => {
      if (!t.code) return;
      if (given.has(t.code)) {
        throw new ApiError(
          "ticket_code_taken",
          "This code appears twice in the batch.",
          `tickets[${i}].code`,
        );
      }
      given.set(t.code, i);
    });
    const taken = await writeStore.existingCodes(tx, [...given.keys()]);
    const clash = tickets.findIndex((t) => t.code && taken.has(t.code));
    if (clash >= 0)
      throw new ApiError("ticket_code_taken", "A ticket with this code exists.", `tickets[${clash}].code`);

    const codes = await this.assignCodes(tx, tickets, new Set(given.keys()));
    const at = now.toISOString();
    const rows: NewTicketRow[] = tickets.map((t, i) => ({
      id: newId(now),
      code: codes[i],
      status: "active",
      ticket_type_id: t.ticket_type_id,
      attendee_name: t.attendee.name,
      attendee_email: t.attendee.email,
      document_type: t.attendee.document?.type ?? null,
      document_number: t.attendee.document?.number ?? null,
      birth_date: t.attendee.birth_date ?? null,
      valid_day_ids: [...new Set(t.valid_days)],
      extra_zone_ids: [...new Set(t.extra_zones ?? [])],
      wristband_id: null,
      checked_in_at: null,
      created_at: at,
      updated_at: at,
    }));
    await writeStore.insertTickets(tx, rows);
    const data = rows.map((row) =>
      this.reads.toTicket(
        {
          ...row,
          wristband_nfc: null,
          created_at: now,
          updated_at: now,
          checked_in_at: null,
          wristband_id: null,
        },
        v,
      ),
    );
    return { object: "list", data, has_more: false, next_cursor: null };
  }

  private checkTicketReferences(t: NewTicket, i: number, v: Visibility) {
    const typeVisible =
      this.catalog.typeById.has(t.ticket_type_id) &&
      (!v.ticketTypeIds || v.ticketTypeIds.includes(t.ticket_type_id));
    if (!typeVisible) {
      throw new ApiError("invalid_parameter", "No ticket type with this id.", `tickets[${i}].ticket_type_id`);
    }
    t.valid_days.forEach((dayId, j) => {
      if (!this.catalog.dayVisible(dayId, v)) {
        throw new ApiError(
          "invalid_parameter",
          "No event day with this id.",
          `tickets[${i}].valid_days[${j}]`,
        );
      }
    });
    (t.extra_zones ?? []).forEach((zoneId, j) => {
      if (!this.catalog.zoneById.has(zoneId)) {
        throw new ApiError("invalid_parameter", "No zone with this id.", `tickets[${i}].extra_zones[${j}]`);
      }
    });
  }

  private async assignCodes(tx: Queryable, tickets: NewTicket[], used: Set<string>): Promise<string[]> {
    const codes = tickets.map((t) => t.code ?? "");
    for (;;) {
      const missing = codes.flatMap((c, i) => (c ? [] : [i]));
      if (missing.length === 0) return codes;
      const fresh = missing.map(
        () => `TK-${Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(32)]).join("")}`,
      );
      const taken = await writeStore.existingCodes(tx, fresh);
      missing.forEach((index, k) => {
        if (!taken.has(fresh[k]) && !used.has(fresh[k])) {
          codes[index] = fresh[k];
          used.add(fresh[k]);
        }
      });
    }
  }

  async cancelTicket(tx: Queryable, v: Visibility, code: string, now = new Date()): Promise<Ticket> {
    const ticket = await this.lockTicket(tx, v, code);
    if (ticket.status === "used")
      throw new ApiError("ticket_already_used", "A used ticket cannot be cancelled.");
    if (ticket.status === "inactive")
      throw new ApiError("ticket_inactive", "The ticket is already cancelled.");
    await writeStore.updateTicket(tx, ticket.id, { status: "inactive", updated_at: now });
    return this.reads.toTicket({ ...ticket, status: "inactive", updated_at: now }, v);
  }

  async checkIn(
    tx: Queryable,
    v: Visibility,
    code: string,
    body: CheckInRequest,
    origin: Origin = nowOrigin(),
  ): Promise<Ticket> {
    const ticket = await this.lockTicket(tx, v, code);
    const occurredAt = body.occurred_at ? new Date(body.occurred_at) : origin.occurredAt;
    const deviceId = body.device_id ?? origin.deviceId;
    const nfc = body.wristband.nfc;
    if (ticket.status === "inactive") throw new ApiError("ticket_inactive", "The ticket is cancelled.");
    if (ticket.status === "used") {
      if (ticket.wristband_nfc === nfc) return this.reads.toTicket(ticket, v);
      throw new ApiError("ticket_already_used", "The ticket is already accredited with another wristband.");
    }
    const wristbandId = await this.linkOrCreateWristband(tx, ticket, body.wristband, origin.createdAt);
    await writeStore.updateTicket(tx, ticket.id, {
      status: "used",
      wristband_id: wristbandId,
      checked_in_at: occurredAt,
      updated_at: origin.createdAt,
    });
    await this.logCheckIn(tx, ticket, wristbandId, { ...origin, occurredAt, deviceId });
    const updated = await writeStore.lockTicketById(tx, ticket.id);
    return this.reads.toTicket(updated!, v);
  }

  /**
   * A check-in made by an offline gate, arriving late. When another gate already accredited the
   * ticket with a different wristband, both wristbands go to pending_review (nobody can tell which
   * one the attendee holds) and the ticket's updated_at moves.
   */
  async syncOfflineCheckIn(
    tx: Queryable,
    code: string,
    wristband: CheckInRequest["wristband"],
    origin: Origin,
  ): Promise<"checked_in" | "unchanged" | "pending_review"> {
    const ticket = await this.lockTicket(tx, UNRESTRICTED, code);
    if (ticket.status === "active") {
      await this.checkIn(tx, UNRESTRICTED, code, { wristband }, origin);
      return "checked_in";
    }
    if (ticket.status === "inactive" || ticket.wristband_nfc === wristband.nfc) return "unchanged";
    const competing = await this.linkOrCreateWristband(tx, ticket, wristband, origin.createdAt);
    const all = (await writeStore.lockWristbandsOfTicket(tx, ticket.id)).map((w) => w.id);
    await writeStore.setWristbandStatus(
      tx,
      [...new Set([...all, competing])],
      "pending_review",
      origin.createdAt,
    );
    await writeStore.updateTicket(tx, ticket.id, { updated_at: origin.createdAt });
    await this.logCheckIn(tx, ticket, competing, origin);
    return "pending_review";
  }

  private async linkOrCreateWristband(
    tx: Queryable,
    ticket: TicketRow,
    wristband: CheckInRequest["wristband"],
    at: Date,
  ): Promise<string> {
    const type = this.catalog.typeById.get(ticket.ticket_type_id)!;
    const zoneIds = [...new Set([...type.zone_ids, ...ticket.extra_zone_ids])];
    const existing = await writeStore.lockWristbandByCode(tx, UNRESTRICTED, wristband.nfc);
    if (wristband.uhf) {
      const byUhf = await writeStore.lockWristbandByCode(tx, UNRESTRICTED, wristband.uhf);
      if (byUhf && byUhf.id !== existing?.id) {
        throw new ApiError(
          "wristband_already_linked",
          "This UHF code belongs to another wristband.",
          "wristband.uhf",
        );
      }
    }
    if (existing) {
      if (existing.ticket_id && existing.ticket_id !== ticket.id) {
        throw new ApiError(
          "wristband_already_linked",
          "This wristband is linked to another ticket.",
          "wristband.nfc",
        );
      }
      if (existing.status !== "active") {
        throw new ApiError("wristband_not_active", `The wristband is ${existing.status}.`, "wristband.nfc");
      }
      await writeStore.linkWristband(tx, existing.id, {
        ticket_id: ticket.id,
        attendee_name: ticket.attendee_name,
        zone_ids: [...new Set([...existing.zone_ids, ...zoneIds])],
        valid_day_ids: ticket.valid_day_ids,
        updated_at: at,
      });
      return existing.id;
    }
    const id = newId(at);
    await writeStore.insertWristband(tx, {
      id,
      nfc: wristband.nfc,
      uhf: wristband.uhf ?? null,
      status: "active",
      balance: 0,
      promo_balance: 0,
      attendee_name: ticket.attendee_name,
      ticket_id: ticket.id,
      zone_ids: zoneIds,
      valid_day_ids: ticket.valid_day_ids,
      created_at: at,
      updated_at: at,
    });
    return id;
  }

  private async logCheckIn(tx: Queryable, ticket: TicketRow, wristbandId: string, origin: Origin) {
    await writeStore.insertScan(tx, {
      id: newId(origin.createdAt),
      kind: "check_in",
      allowed: true,
      reason: null,
      code: ticket.code,
      ticket_code: ticket.code,
      wristband_id: wristbandId,
      zone_id: null,
      device_id: origin.deviceId,
      day_id: this.catalog.dayFor(origin.occurredAt).id,
      occurred_at: origin.occurredAt,
      created_at: origin.createdAt,
    });
  }

  /** Validates a zone for a code; every check, allowed or not, goes to the scan log. */
  async accessCheck(
    tx: Queryable,
    v: Visibility,
    body: AccessCheckRequest,
    origin: Origin = nowOrigin(),
  ): Promise<AccessCheck> {
    const zone = this.catalog.zoneById.get(body.zone_id);
    if (!zone) throw new ApiError("invalid_parameter", "No zone with this id.", "zone_id");
    const day = this.catalog.dayFor(origin.occurredAt);
    let wristband: WristbandRow | undefined = await writeStore.lockWristbandByCode(tx, v, body.code);
    let ticket: TicketRow | undefined;
    if (!wristband) {
      ticket = await writeStore.lockTicket(tx, v, body.code);
      if (ticket?.wristband_id) wristband = await writeStore.lockWristbandById(tx, ticket.wristband_id);
    }
    let reason: string | null = null;
    if (wristband) {
      if (wristband.status !== "active") reason = wristband.status;
      else if (!wristband.valid_day_ids.includes(day.id)) reason = "day_not_valid";
      else if (!wristband.zone_ids.includes(zone.id)) reason = "zone_not_allowed";
    } else if (ticket) {
      // A ticket not yet accredited opens what its type and extra zones open, on its valid days.
      const zones = [...this.catalog.typeById.get(ticket.ticket_type_id)!.zone_ids, ...ticket.extra_zone_ids];
      if (ticket.status === "inactive") reason = "ticket_inactive";
      else if (!ticket.valid_day_ids.includes(day.id)) reason = "day_not_valid";
      else if (!zones.includes(zone.id)) reason = "zone_not_allowed";
    } else {
      reason = "unknown_code";
    }
    await writeStore.insertScan(tx, {
      id: newId(origin.createdAt),
      kind: "access_check",
      allowed: reason === null,
      reason,
      code: body.code,
      ticket_code: ticket?.code ?? wristband?.ticket_code ?? null,
      wristband_id: wristband?.id ?? null,
      zone_id: zone.id,
      device_id: body.device_id ?? origin.deviceId,
      day_id: day.id,
      occurred_at: origin.occurredAt,
      created_at: origin.createdAt,
    });
    return {
      object: "access_check",
      allowed: reason === null,
      reason,
      zone,
      wristband: wristband ? { id: wristband.id, nfc: wristband.nfc, status: wristband.status } : null,
      checked_at: origin.occurredAt.toISOString(),
    };
  }

  /**
   * A top-up or withdrawal. A top-up's bonus is recomputed from the rules and the person's cap and
   * must equal what the client quoted; the bonus is its own promo record in the same transaction.
   */
  async createTopup(
    tx: Queryable,
    v: Visibility,
    body: CreateTopupRequest,
    origin: Origin = nowOrigin(),
  ): Promise<Topup> {
    const wristband = await this.lockWristbandForMoney(tx, v, body.code);
    const direction = body.direction ?? "topup";
    const day = this.catalog.dayFor(origin.occurredAt);
    const record = (
      fields: Omit<
        NewTopupRow,
        "id" | "status" | "wristband_id" | "day_id" | "device_id" | "occurred_at" | "created_at"
      >,
    ): NewTopupRow => ({
      id: newId(origin.createdAt),
      status: "completed",
      wristband_id: wristband.id,
      day_id: day.id,
      device_id: origin.deviceId,
      occurred_at: origin.occurredAt,
      created_at: origin.createdAt,
      ...fields,
    });

    if (direction === "withdraw") {
      if ((body.bonus_amount ?? 0) !== 0 || (body.bonus_rule ?? null) !== null) {
        throw new ApiError("invalid_parameter", "A withdrawal carries no bonus.", "bonus_amount");
      }
      if (body.amount > wristband.balance) {
        throw new ApiError(
          "insufficient_balance",
          `The paid balance is ${wristband.balance} cents; at most that can be withdrawn (the promo balance is never refunded).`,
          "amount",
        );
      }
      const moved = await writeStore.addToBalance(
        tx,
        wristband.id,
        "balance",
        -body.amount,
        origin.createdAt,
      );
      const paid = record({
        direction: "withdraw",
        amount: body.amount,
        previous_balance: moved.previous,
        new_balance: moved.next,
        payment_method: body.payment_method,
        nature: "paid",
        bonus_rule_id: null,
      });
      await writeStore.insertTopup(tx, paid);
      return this.reads.toTopup(paid);
    }

    const quote = await this.freshQuote(tx, wristband, body.amount, origin.occurredAt);
    const quotedRule = body.bonus_rule ?? null;
    if ((body.bonus_amount ?? 0) !== quote.bonus_amount || quotedRule !== (quote.rule?.id ?? null)) {
      throw new ApiError(
        "bonus_mismatch",
        `The bonus for this amount is now ${quote.bonus_amount} cents (rule ${quote.rule?.id ?? "none"}); quote again and confirm.`,
        "bonus_amount",
      );
    }
    const moved = await writeStore.addToBalance(tx, wristband.id, "balance", body.amount, origin.createdAt);
    const paid = record({
      direction: "topup",
      amount: body.amount,
      previous_balance: moved.previous,
      new_balance: moved.next,
      payment_method: body.payment_method,
      nature: "paid",
      bonus_rule_id: null,
    });
    await writeStore.insertTopup(tx, paid);
    if (quote.bonus_amount > 0) {
      const promo = await writeStore.addToBalance(
        tx,
        wristband.id,
        "promo_balance",
        quote.bonus_amount,
        origin.createdAt,
      );
      await writeStore.insertTopup(
        tx,
        record({
          direction: "topup",
          amount: quote.bonus_amount,
          previous_balance: promo.previous,
          new_balance: promo.next,
          payment_method: "promo",
          nature: "bonus",
          bonus_rule_id: quote.rule!.id,
        }),
      );
    }
    return this.reads.toTopup(paid);
  }

  /** The bonus the server would grant now for this amount and this person (cap included). */
  private async freshQuote(tx: Queryable, wristband: WristbandRow, amount: number, at: Date) {
    const personWristbands = wristband.ticket_id
      ? (await writeStore.lockWristbandsOfTicket(tx, wristband.ticket_id)).map((w) => w.id)
      : [wristband.id];
    const granted = await writeStore.bonusGranted(tx, personWristbands);
    const cap = remainingCap(this.catalog.event.bonus_cap_per_person, granted, []);
    return quoteLine(validRules(await this.reads.bonusRules(tx), at), amount, cap);
  }

  /** The active wristband behind a wristband or ticket code, locked (freshQuote then locks the person's other wristbands). */
  private async lockWristbandForMoney(tx: Queryable, v: Visibility, code: string): Promise<WristbandRow> {
    let wristband = await writeStore.lockWristbandByCode(tx, v, code);
    if (!wristband) {
      const ticket = await writeStore.lockTicket(tx, v, code);
      if (ticket?.wristband_id) wristband = await writeStore.lockWristbandById(tx, ticket.wristband_id);
    }
    if (!wristband) throw new ApiError("wristband_not_found", "No wristband with this code.", "code");
    if (wristband.status !== "active") {
      throw new ApiError("wristband_not_active", `The wristband is ${wristband.status}.`, "code");
    }
    return wristband;
  }

  /**
   * Resolves a pending_review pair: the kept wristband becomes active and linked to the ticket, the
   * others are blocked and their balances move to it as paired transfer records.
   */
  async review(tx: Queryable, v: Visibility, code: string, origin: Origin = nowOrigin()): Promise<Wristband> {
    const found = await writeStore.lockWristbandByCode(tx, v, code);
    if (!found) throw new ApiError("wristband_not_found", "No wristband with this NFC or UHF code.", "code");
    if (found.status !== "pending_review") {
      throw new ApiError("wristband_not_in_review", `The wristband is ${found.status}, not pending_review.`);
    }
    const at = origin.createdAt;
    const day = this.catalog.dayFor(origin.occurredAt);
    const others = found.ticket_id
      ? (await writeStore.lockWristbandsOfTicket(tx, found.ticket_id)).filter(
          (w) => w.id !== found.id && w.status === "pending_review",
        )
      : [];
    for (const other of others) {
      for (const column of ["balance", "promo_balance"] as const) {
        const amount = other[column];
        if (amount === 0) continue;
        // A negative balance moves too: the kept wristband takes the debt over.
        const [from, to] = amount > 0 ? [other.id, found.id] : [found.id, other.id];
        const moveOut = await writeStore.addToBalance(tx, from, column, -Math.abs(amount), at);
        const moveIn = await writeStore.addToBalance(tx, to, column, Math.abs(amount), at);
        const method = column === "promo_balance" ? "promo" : "transfer";
        for (const [wristbandId, direction, moved] of [
          [from, "withdraw", moveOut],
          [to, "topup", moveIn],
        ] as const) {
          await writeStore.insertTopup(tx, {
            id: newId(at),
            direction,
            amount: Math.abs(amount),
            previous_balance: moved.previous,
            new_balance: moved.next,
            payment_method: method,
            nature: "transfer",
            status: "completed",
            bonus_rule_id: null,
            wristband_id: wristbandId,
            day_id: day.id,
            device_id: origin.deviceId,
            occurred_at: origin.occurredAt,
            created_at: at,
          });
        }
      }
    }
    if (others.length)
      await writeStore.setWristbandStatus(
        tx,
        others.map((o) => o.id),
        "blocked",
        at,
      );
    await writeStore.setWristbandStatus(tx, [found.id], "active", at);
    if (found.ticket_id)
      await writeStore.updateTicket(tx, found.ticket_id, { wristband_id: found.id, updated_at: at });
    const kept = await writeStore.lockWristbandById(tx, found.id);
    return this.reads.toWristband(kept!, v);
  }

  /**
   * A sale from a terminal (terminals sync through their own channel, not the public API).
   * Wristband payments spend promo_balance first; an online terminal refuses a sale the balances
   * do not cover, an offline one cannot know and may leave `balance` negative.
   */
  async recordSale(
    tx: Queryable,
    sale: {
      wristbandId: string;
      lines: SaleLine[];
      paymentMethod: "wristband" | "card" | "cash";
      online: boolean;
      status?: "completed" | "pending" | "cancelled";
    },
    origin: Origin,
  ): Promise<string> {
    const wristband = await writeStore.lockWristbandById(tx, sale.wristbandId);
    if (!wristband) throw new ApiError("wristband_not_found", "No wristband with this id.");
    if (sale.online && wristband.status !== "active") {
      throw new ApiError("wristband_not_active", `The wristband is ${wristband.status}.`);
    }
    const items = sale.lines.map((l) => ({
      product_id: l.product_id,
      name: l.name,
      quantity: l.quantity,
      unit_price: l.unit_price,
      charged_amount: (l.quantity - l.included_quantity) * l.unit_price,
      included_quantity: l.included_quantity,
    }));
    const taxes = new Map<string, { tax_type: string; rate: number; base: number; amount: number }>();
    sale.lines.forEach((l, i) => {
      const gross = items[i].charged_amount;
      const key = `${l.tax_type}:${l.rate}`;
      const line = taxes.get(key) ?? { tax_type: l.tax_type, rate: l.rate, base: 0, amount: 0 };
      line.base += gross;
      taxes.set(key, line);
    });
    const taxBreakdown = [...taxes.values()].map((t) => {
      const base = Math.round((t.base * 100) / (100 + t.rate));
      return { tax_type: t.tax_type, rate: t.rate, base, amount: t.base - base };
    });
    const total = items.reduce((s, i) => s + i.charged_amount, 0);
    const status = sale.status ?? "completed";
    let promoSpent = 0;
    let balanceSpent = 0;
    if (sale.paymentMethod === "wristband" && status === "completed") {
      if (sale.online && wristband.balance + wristband.promo_balance < total) {
        throw new ApiError("insufficient_balance", "The wristband's balances do not cover this sale.");
      }
      promoSpent = Math.min(Math.max(wristband.promo_balance, 0), total);
      balanceSpent = total - promoSpent;
      if (promoSpent)
        await writeStore.addToBalance(tx, wristband.id, "promo_balance", -promoSpent, origin.createdAt);
      if (balanceSpent)
        await writeStore.addToBalance(tx, wristband.id, "balance", -balanceSpent, origin.createdAt);
    }
    const id = newId(origin.createdAt);
    await writeStore.insertSale(tx, {
      id,
      status,
      type: "cart",
      payment_method: sale.paymentMethod,
      total,
      total_base: taxBreakdown.reduce((s, t) => s + t.base, 0),
      total_tax: taxBreakdown.reduce((s, t) => s + t.amount, 0),
      tax_breakdown: taxBreakdown,
      items,
      promo_spent: promoSpent,
      balance_spent: balanceSpent,
      wristband_id: wristband.id,
      day_id: this.catalog.dayFor(origin.occurredAt).id,
      device_id: origin.deviceId,
      occurred_at: origin.occurredAt,
      created_at: origin.createdAt,
    });
    return id;
  }

  private async lockTicket(tx: Queryable, v: Visibility, code: string): Promise<TicketRow> {
    const ticket = await writeStore.lockTicket(tx, v, code);
    if (!ticket) throw new ApiError("ticket_not_found", "No ticket with this code.", "code");
    return ticket;
  }
}
