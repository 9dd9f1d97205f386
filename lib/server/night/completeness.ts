import "server-only";
import type { Db, Queryable } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { NightCompleteness, NightReport, Signoff, WaiverRequest } from "@/lib/shared/api/night";
import { dateTime } from "@/lib/shared/format/time";
import { pushBus } from "../push";
import { quietAfterSeconds } from "../store/attention";
import { recordAudit } from "../store/audit-log";
import { eventDays, eventFormat } from "../store/event-settings";
import * as night from "../store/night-records";

/**
 * Is the night complete? The night's last activity is its newest record. A terminal active in the
 * night that has not reached the server since well before that (the quiet minimum, 10 minutes by
 * default) may still hold records of it: the night is provisional until that terminal syncs or a
 * supervisor waives it. One that reached the server after that has sent its buffer (terminals
 * send all of it when they are back).
 */

const latest = (values: (string | null)[]) =>
  values
    .filter((v): v is string => v !== null)
    .reduce<string | null>((m, v) => (m === null || v > m ? v : m), null);

/** Pure: which terminals the night waits for. */
export function completenessOf(
  terminals: Awaited<ReturnType<typeof night.nightTerminals>>,
  waivers: Awaited<ReturnType<typeof night.waiversOf>>,
  quietMs: number,
): NightCompleteness {
  const lastActivity = latest(terminals.map((t) => t.night_last_record));
  const rows = terminals.map(({ night_last_record: _, ...t }) => {
    const pending =
      lastActivity !== null &&
      (t.last_arrival === null || Date.parse(lastActivity) - Date.parse(t.last_arrival) > quietMs);
    const w = waivers.find((x) => x.device_id === t.device_id);
    return {
      ...t,
      pending,
      waiver: w ? { username: w.username, reason: w.reason, waived_at: w.waived_at } : null,
    };
  });
  return {
    provisional: rows.some((t) => t.pending && t.waiver === null),
    last_activity: lastActivity,
    terminals: rows,
  };
}

export async function nightCompleteness(
  db: Queryable,
  day: { id: string; ends_at: string },
): Promise<NightCompleteness> {
  const [terminals, waivers, quiet] = await Promise.all([
    night.nightTerminals(db, day.id),
    night.waiversOf(db, day.id),
    quietAfterSeconds(db),
  ]);
  return completenessOf(terminals, waivers, quiet * 1000);
}

/** Records that reached the server after the latest sign-off, per terminal (the snapshot stays as it was). */
export async function adjustmentsOf(
  db: Queryable,
  last: Signoff | undefined,
): Promise<NightReport["adjustments"]> {
  if (!last) return null;
  const byDevice = await night.lateByDevice(db, last.day_id, last.signed_at);
  return { signoff_id: last.id, signed_at: last.signed_at, by_device: byDevice };
}

/**
 * A supervisor waives a terminal the night waits for: who and why are kept (and in the audit log).
 * Only a pending terminal of a night that has ended, and once per terminal and night (a constraint
 * of the store: the second of two at once is refused with a 409 naming the first).
 */
export async function waiveTerminal(
  db: Db,
  user: { id: string; username: string; role: string },
  request: WaiverRequest,
  now: Date,
): Promise<NightCompleteness> {
  const day = (await eventDays(db)).find((d) => d.id === request.day_id);
  if (!day)
    throw new ConsoleError("invalid_parameter", `Unknown day_id ${request.day_id}.`, { param: "day_id" });
  const { timeZone } = await eventFormat(db);
  const before = await nightCompleteness(db, day);
  const terminal = before.terminals.find((t) => t.device_id === request.device_id);
  if (!terminal)
    throw new ConsoleError("invalid_parameter", `${request.device_id} was not active in this night.`, {
      param: "device_id",
    });
  if (Date.parse(day.ends_at) > now.getTime())
    throw new ConsoleError(
      "night_not_ended",
      `${day.name} has not ended yet (it ends ${dateTime(day.ends_at, timeZone)}): a terminal may still sync; it is waived once the night is over.`,
    );
  const alreadyWaived = (w: NonNullable<typeof terminal.waiver>) =>
    new ConsoleError(
      "already_waived",
      `${w.username} waived ${request.device_id} at ${dateTime(w.waived_at, timeZone)} ("${w.reason}"); that waiver stands.`,
    );
  if (terminal.waiver) throw alreadyWaived(terminal.waiver);
  if (!terminal.pending)
    throw new ConsoleError(
      "terminal_not_pending",
      `${request.device_id} has reached the server since the night's last activity: the night does not wait for it.`,
    );
  const stored = await night.insertWaiver(db, {
    ...request,
    user_id: user.id,
    username: user.username,
    at: now,
  });
  const after = await nightCompleteness(db, day);
  if (!stored) {
    const w = after.terminals.find((t) => t.device_id === request.device_id)?.waiver;
    if (w) throw alreadyWaived(w);
  }
  await recordAudit(db, {
    user,
    action: "reconciliation.waive",
    target: `${request.day_id}/${request.device_id}`,
    outcome: "ok",
    detail: { reason: request.reason },
  });
  pushBus(db).emit("night");
  return after;
}
