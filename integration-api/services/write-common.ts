import { ApiError } from "../errors";
import type { Queryable } from "../store/db";
import type { TicketRow, WristbandRow } from "../store/records-store";
import type { Visibility } from "../store/sql";
import { writeStore } from "../store/write-store";

/**
 * What the write services share. Every write runs inside the caller's transaction (`tx`), so a
 * request's records, balances and idempotency answer commit together or not at all.
 */

/** Where and when a write happened: API writes are now; terminals bring their own (offline) times. */
export interface Origin {
  occurredAt: Date;
  createdAt: Date;
  deviceId: string | null;
}

export const nowOrigin = (now: Date): Origin => ({ occurredAt: now, createdAt: now, deviceId: null });

/** The ticket with this code in the key's scope, locked; ticket_not_found otherwise. */
export async function lockTicketOrFail(tx: Queryable, v: Visibility, code: string): Promise<TicketRow> {
  const ticket = await writeStore.lockTicket(tx, v, code);
  if (!ticket) throw new ApiError("ticket_not_found", "No ticket with this code.", "code");
  return ticket;
}

/**
 * What a code presented at a terminal names, locked: a wristband (by NFC or UHF), else a ticket and
 * the wristband it is accredited with, if any.
 */
export async function lockByCode(
  tx: Queryable,
  v: Visibility,
  code: string,
): Promise<{ wristband?: WristbandRow; ticket?: TicketRow }> {
  const wristband = await writeStore.lockWristbandByCode(tx, v, code);
  if (wristband) return { wristband };
  const ticket = await writeStore.lockTicket(tx, v, code);
  if (!ticket?.wristband_id) return { ticket };
  return { wristband: await writeStore.lockWristbandById(tx, ticket.wristband_id), ticket };
}
