import "server-only";
import type { Db, Queryable } from "@/lib/db/db";
import type { Station, TerminalDetail, TerminalRow, TerminalsView } from "@/lib/shared/api/attention";
import { ConsoleError } from "@/lib/shared/api/errors";
import { dayOf } from "@/lib/shared/format/time";
import * as store from "../store/attention";
import { recordAudit } from "../store/audit-log";
import { eventDays, eventFormat } from "../store/event-settings";
import { mirrorFreshness } from "../sync/freshness";
import { stationOf } from "./terminal-rules";

/** What the terminals screens show, from the stored states. */

export const SPARKLINE_HOURS = 6;
const RECORDS_ON_PAGE = 100;
const HOUR = 3_600_000;

function sparklines(rows: { device_id: string; hour: string; records: number }[], now: Date) {
  const first = Math.floor(now.getTime() / HOUR) * HOUR - (SPARKLINE_HOURS - 1) * HOUR;
  const out = new Map<string, number[]>();
  for (const r of rows) {
    const i = Math.round((Date.parse(r.hour) - first) / HOUR);
    if (i < 0 || i >= SPARKLINE_HOURS) continue;
    const line = out.get(r.device_id) ?? new Array<number>(SPARKLINE_HOURS).fill(0);
    line[i] = (line[i] ?? 0) + r.records;
    out.set(r.device_id, line);
  }
  return out;
}

const dayNames = async (db: Queryable) => (await eventDays(db)).map((d) => ({ id: d.id, name: d.name }));

async function terminalRows(db: Queryable, now: Date): Promise<TerminalRow[]> {
  const day = dayOf(await eventDays(db), now);
  const [states, devices, overrides, hours] = await Promise.all([
    store.terminalStates(db),
    store.deviceDays(db, day?.id ?? null),
    store.stationOverrides(db),
    store.deviceHoursSince(
      db,
      new Date(Math.floor(now.getTime() / HOUR) * HOUR - (SPARKLINE_HOURS - 1) * HOUR),
      now,
    ),
  ]);
  const byDevice = new Map(devices.map((d) => [d.device_id, d]));
  const lines = sparklines(hours, now);
  return states.map((s) => {
    const today = byDevice.get(s.device_id)?.today ?? null;
    const override = overrides.get(s.device_id);
    return {
      device_id: s.device_id,
      station: (override as Station | undefined) ?? stationOf(s.device_id),
      station_overridden: override !== undefined,
      state: s.state,
      since: s.since,
      records_today: today?.records ?? 0,
      money_today: today?.money ?? 0,
      late_today: today?.lateRecords ?? 0,
      late_share: today && today.records > 0 ? today.lateRecords / today.records : 0,
      last_occurred_at: s.last_occurred_at,
      last_created_at: s.last_created_at,
      normal_gap_s: s.figures.normal_gap_s,
      quiet_after_s: s.figures.quiet_after_s,
      burst: s.figures.burst,
      sparkline: lines.get(s.device_id) ?? new Array<number>(SPARKLINE_HOURS).fill(0),
    };
  });
}

export async function terminalsView(db: Queryable, now: Date): Promise<TerminalsView> {
  const [rows, format, states, days, freshness] = await Promise.all([
    terminalRows(db, now),
    eventFormat(db),
    store.terminalStates(db),
    dayNames(db),
    mirrorFreshness(db, now),
  ]);
  return {
    computed_at: states.reduce<string | null>(
      (m, s) => (m === null || s.computed_at > m ? s.computed_at : m),
      null,
    ),
    currency: format.currency,
    time_zone: format.timeZone,
    days,
    terminals: rows,
    freshness,
  };
}

export async function terminalDetail(db: Queryable, deviceId: string, now: Date): Promise<TerminalDetail> {
  const [rows, format, records, settings, days] = await Promise.all([
    terminalRows(db, now),
    eventFormat(db),
    store.terminalRecords(db, deviceId, RECORDS_ON_PAGE),
    store.lateAfterSeconds(db),
    dayNames(db),
  ]);
  const terminal = rows.find((r) => r.device_id === deviceId) ?? null;
  if (!terminal && records.length === 0)
    throw new ConsoleError("not_found", `No terminal ${deviceId} in the mirror.`);
  return {
    terminal,
    device_id: deviceId,
    currency: format.currency,
    time_zone: format.timeZone,
    days,
    records: records.map((r) => ({
      ...r,
      late: Date.parse(r.created_at) - Date.parse(r.occurred_at) > settings * 1000,
    })),
  };
}

/**
 * A manager sets (or, with null, clears) a terminal's station; the audit log keeps who and when.
 * A device the mirror does not know is 404 before anything is written: no override, no audit entry.
 */
export async function changeStation(
  db: Db,
  user: { id: string; username: string; role: string },
  deviceId: string,
  station: Station | null,
  now: Date,
): Promise<TerminalDetail> {
  await db.transaction(async (tx) => {
    if (!(await store.terminalKnown(tx, deviceId)))
      throw new ConsoleError("not_found", `No terminal ${deviceId} in the mirror.`);
    await store.setStationOverride(tx, deviceId, station, user.username, now);
    await recordAudit(tx, {
      user,
      action: "terminals.station",
      target: deviceId,
      outcome: "ok",
      detail: { station },
    });
  });
  return terminalDetail(db, deviceId, now);
}
