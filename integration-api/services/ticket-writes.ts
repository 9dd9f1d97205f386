import { randomInt } from "node:crypto";
import type { Clock } from "../../lib/contract/clock";
import type { CheckInRequest, NewTicket } from "../../lib/contract/requests";
import { MAX_TICKETS_PER_BATCH } from "../../lib/contract/requests";
import type { Ticket } from "../../lib/contract/resources";
import { ApiError } from "../errors";
import { newId } from "../ids";
import type { Queryable } from "../store/db";
import type { TicketRow } from "../store/records-store";
import { UNRESTRICTED, type Visibility } from "../store/sql";
import { type NewTicketRow, writeStore } from "../store/write-store";
import type { Catalog } from "./catalog-service";
import type { Page, ReadService } from "./read-service";
import { lockTicketOrFail, nowOrigin, type Origin } from "./write-common";

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A stored code and a presented one name the same thing (case does not matter, as in lookups). */
const sameStoredCode = (stored: string | null, presented: string) =>
  stored !== null && stored.toLowerCase() === presented.trim().toLowerCase();

/** Tickets: creation, cancellation and check-in (online, or synced late by an offline gate). */
export class TicketWrites {
  constructor(
    private readonly catalog: Catalog,
    private readonly reads: ReadService,
    private readonly clock: Clock,
  ) {}

  async createTickets(
    tx: Queryable,
    v: Visibility,
    tickets: NewTicket[],
    now = this.clock(),
  ): Promise<Page<Ticket>> {
    if (tickets.length === 0) throw new ApiError("invalid_parameter", "Send at least one ticket.", "tickets");
    if (tickets.length > MAX_TICKETS_PER_BATCH) {
      throw new ApiError("batch_too_large", `At most ${MAX_TICKETS_PER_BATCH} tickets per call.`, "tickets");
    }
    for (const [i, t] of tickets.entries()) this.checkTicketReferences(t, i, v);

    // Codes are compared whatever their case (api-v1-decisions): "tk-1" and "TK-1" are one code.
    const given = new Map<string, number>();
    tickets.forEach((t, i) => {
      if (!t.code) return;
      const key = t.code.toLowerCase();
      if (given.has(key)) {
        throw new ApiError(
          "ticket_code_taken",
          "This code appears twice in the batch (codes are compared whatever their case).",
          `tickets[${i}].code`,
        );
      }
      given.set(key, i);
    });
    const taken = await writeStore.existingCodes(tx, [...given.keys()]);
    const clash = tickets.findIndex((t) => t.code && taken.has(t.code.toLowerCase()));
    if (clash >= 0)
      throw new ApiError(
        "ticket_code_taken",
        "A ticket with this code exists (codes are compared whatever their case).",
        `tickets[${clash}].code`,
      );

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
    try {
      await writeStore.insertTickets(tx, rows);
    } catch (err) {
      // Another request created one of these codes (in any case) since they were checked.
      if ((err as { code?: string }).code === "23505")
        throw new ApiError(
          "ticket_code_taken",
          "A ticket with one of these codes was just created.",
          "tickets",
        );
      throw err;
    }
    const data = rows.map((row) =>
      this.reads.toTicket(
        {
          ...row,
          wristband_nfc: null,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
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

  /** Codes for the tickets sent without one; `used` holds the batch's own codes, lower-cased. */
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
        const key = fresh[k].toLowerCase();
        if (!taken.has(key) && !used.has(key)) {
          codes[index] = fresh[k];
          used.add(key);
        }
      });
    }
  }

  async cancelTicket(tx: Queryable, v: Visibility, code: string, now = this.clock()): Promise<Ticket> {
    const ticket = await lockTicketOrFail(tx, v, code);
    if (ticket.status === "used")
      throw new ApiError("ticket_already_used", "A used ticket cannot be cancelled.");
    if (ticket.status === "inactive")
      throw new ApiError("ticket_inactive", "The ticket is already cancelled.");
    await writeStore.updateTicket(tx, ticket.id, { status: "inactive", updated_at: now });
    return this.reads.toTicket({ ...ticket, status: "inactive", updated_at: now.toISOString() }, v);
  }

  async checkIn(
    tx: Queryable,
    v: Visibility,
    code: string,
    body: CheckInRequest,
    origin: Origin = nowOrigin(this.clock()),
  ): Promise<Ticket> {
    const ticket = await lockTicketOrFail(tx, v, code);
    const occurredAt = body.occurred_at ? new Date(body.occurred_at) : origin.occurredAt;
    const deviceId = body.device_id ?? origin.deviceId;
    const nfc = body.wristband.nfc;
    if (ticket.status === "inactive") throw new ApiError("ticket_inactive", "The ticket is cancelled.");
    if (ticket.status === "used") {
      if (sameStoredCode(ticket.wristband_nfc, nfc)) return this.reads.toTicket(ticket, v);
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
    const ticket = await lockTicketOrFail(tx, UNRESTRICTED, code);
    if (ticket.status === "active") {
      await this.checkIn(tx, UNRESTRICTED, code, { wristband }, origin);
      return "checked_in";
    }
    if (ticket.status === "inactive" || sameStoredCode(ticket.wristband_nfc, wristband.nfc))
      return "unchanged";
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
}
