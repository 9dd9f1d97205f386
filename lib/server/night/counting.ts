import "server-only";
import type { Db } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import {
  type CountLineInput,
  type DraftLine,
  type DraftRequest,
  type ExpectedLine,
  type FloatEntry,
  type FloatRequest,
  MAX_COUNT,
} from "@/lib/shared/api/night";
import { denominationTotal, unknownDenominations } from "@/lib/shared/denominations";
import type { CountInput } from "@/lib/shared/night-arithmetic";
import { recordAudit } from "../store/audit-log";
import { eventDays, eventFormat } from "../store/event-settings";
import { draftOf, floatsOf, insertFloat, saveDraftLines } from "../store/night-close";
import { pickDay } from "../sync/freshness";
import { nightFigures } from "./night";

/**
 * Counting a night: the lines a supervisor counted, checked against the night (a known desk and
 * method, once each, a bounded amount, notes and coins of the event's currency), the draft a count
 * is saved as, and the opening floats of the cash desks.
 */

type User = { id: string; username: string; role: string };

const lineName = (l: { device_id: string; payment_method: string }) =>
  `${l.payment_method} at ${l.device_id || "online, no terminal"}`;

/**
 * The counted lines as totals, or a 400 naming the first line at fault (`param`: `counted.<i>`):
 * `unknown_count_line` (the night has no such desk and method), `duplicate_count_line`,
 * `unknown_denomination` (not a note or coin of the currency), `invalid_parameter` (notes and coins
 * adding up to more than a count may be).
 */
export function resolveCount(
  expected: ExpectedLine[],
  lines: CountLineInput[],
  currency: string,
  field = "counted",
): CountInput[] {
  const seen = new Set<string>();
  return lines.map((l, i) => {
    const param = `${field}.${i}`;
    const key = `${l.device_id}\u0000${l.payment_method}`;
    if (!expected.some((e) => e.device_id === l.device_id && e.payment_method === l.payment_method))
      throw new ConsoleError("unknown_count_line", `${param}: the night has no ${lineName(l)} to count.`, {
        param,
      });
    if (seen.has(key))
      throw new ConsoleError("duplicate_count_line", `${param}: ${lineName(l)} is counted twice.`, { param });
    seen.add(key);
    if (!l.denominations)
      return { device_id: l.device_id, payment_method: l.payment_method, counted: l.counted! };
    const unknown = unknownDenominations(currency, l.denominations);
    if (unknown.length > 0)
      throw new ConsoleError(
        "unknown_denomination",
        `${param}: ${unknown[0]} is not a note or coin of ${currency} (in minor units).`,
        { param: `${param}.denominations.${unknown[0]}` },
      );
    const counted = denominationTotal(l.denominations);
    if (counted > MAX_COUNT)
      throw new ConsoleError(
        "invalid_parameter",
        `${param}: the notes and coins add up to more than a count may be.`,
        {
          param: `${param}.denominations`,
        },
      );
    return {
      device_id: l.device_id,
      payment_method: l.payment_method,
      counted,
      denominations: l.denominations,
    };
  });
}

/** Saves counted lines as the night's draft (a running night too); answers the whole draft. */
export async function saveDraft(db: Db, user: User, request: DraftRequest, now: Date): Promise<DraftLine[]> {
  return db.transaction(async (tx) => {
    const day = pickDay({ days: await eventDays(tx) }, request.day_id, now)!;
    const [{ currency }, figures] = await Promise.all([eventFormat(tx), nightFigures(tx, day.id)]);
    const cleared = request.lines.filter((l) => l.counted === null);
    const counted = resolveCount(
      figures.expected,
      request.lines.filter((l): l is CountLineInput => l.counted !== null),
      currency,
      "lines",
    );
    await saveDraftLines(
      tx,
      day.id,
      [
        ...cleared.map((l) => ({ ...l, counted: null, denominations: null })),
        ...counted.map((l) => ({ ...l, denominations: l.denominations ?? null })),
      ],
      { username: user.username, at: now },
    );
    return draftOf(tx, day.id);
  });
}

/**
 * A cash desk's opening float for a night, entered before or during it (or corrected after): every
 * entry is kept and audited, the latest counts. Answers the night's floats.
 */
export async function setFloat(db: Db, user: User, request: FloatRequest, now: Date): Promise<FloatEntry[]> {
  const day = pickDay({ days: await eventDays(db) }, request.day_id, now)!;
  const before = (await floatsOf(db, day.id)).find((f) => f.device_id === request.device_id);
  await insertFloat(db, { ...request, day_id: day.id, user_id: user.id, username: user.username, at: now });
  await recordAudit(db, {
    user,
    action: "reconciliation.float",
    target: `${day.id}/${request.device_id}`,
    outcome: "ok",
    detail: { amount: request.amount, previous: before?.amount ?? null },
  });
  return floatsOf(db, day.id);
}
