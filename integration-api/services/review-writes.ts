import type { Clock } from "../../lib/contract/clock";
import type { Wristband } from "../../lib/contract/resources";
import { ApiError } from "../errors";
import { newId } from "../ids";
import type { Queryable } from "../store/db";
import type { Visibility } from "../store/sql";
import { writeStore } from "../store/write-store";
import type { Catalog } from "./catalog-service";
import type { ReadService } from "./read-service";
import { nowOrigin, type Origin } from "./write-common";

/** Review of a pending_review pair (two gates accredited one ticket with different wristbands). */
export class ReviewWrites {
  constructor(
    private readonly catalog: Catalog,
    private readonly reads: ReadService,
    private readonly clock: Clock,
  ) {}

  /**
   * Resolves a pending_review pair: the kept wristband becomes active and linked to the ticket, the
   * others are blocked and their balances move to it as paired transfer records.
   */
  async review(
    tx: Queryable,
    v: Visibility,
    code: string,
    origin: Origin = nowOrigin(this.clock()),
  ): Promise<Wristband> {
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
}
