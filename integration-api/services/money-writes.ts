import type { Clock } from "../../lib/contract/clock";
import type { CreateTopupRequest } from "../../lib/contract/requests";
import type { Topup } from "../../lib/contract/resources";
import { ApiError } from "../errors";
import { newId } from "../ids";
import type { Queryable } from "../store/db";
import type { WristbandRow } from "../store/records-store";
import type { Visibility } from "../store/sql";
import { type NewTopupRow, writeStore } from "../store/write-store";
import { quoteLine, remainingCap, validRules } from "./bonus-rules";
import type { Catalog } from "./catalog-service";
import type { ReadService } from "./read-service";
import { lockByCode, nowOrigin, type Origin } from "./write-common";

/** Top-ups (with the bonus quoted again at write time) and withdrawals. */
export class MoneyWrites {
  constructor(
    private readonly catalog: Catalog,
    private readonly reads: ReadService,
    private readonly clock: Clock,
  ) {}

  /**
   * A top-up or withdrawal. A top-up's bonus is recomputed from the rules and the person's cap and
   * must equal what the client quoted; the bonus is its own promo record in the same transaction.
   */
  async createTopup(
    tx: Queryable,
    v: Visibility,
    body: CreateTopupRequest,
    origin: Origin = nowOrigin(this.clock()),
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

    /** The paid record: the balance moves by the amount, in the request's direction. */
    const movePaid = async (direction: "topup" | "withdraw") => {
      const delta = direction === "topup" ? body.amount : -body.amount;
      const moved = await writeStore.addToBalance(tx, wristband.id, "balance", delta, origin.createdAt);
      const paid = record({
        direction,
        amount: body.amount,
        previous_balance: moved.previous,
        new_balance: moved.next,
        payment_method: body.payment_method,
        nature: "paid",
        bonus_rule_id: null,
      });
      await writeStore.insertTopup(tx, paid);
      return paid;
    };

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
      return this.reads.toTopup(await movePaid("withdraw"));
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
    const paid = await movePaid("topup");
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
    const { wristband } = await lockByCode(tx, v, code);
    if (!wristband) throw new ApiError("wristband_not_found", "No wristband with this code.", "code");
    if (wristband.status !== "active") {
      throw new ApiError("wristband_not_active", `The wristband is ${wristband.status}.`, "code");
    }
    return wristband;
  }
}
