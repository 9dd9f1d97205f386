import "server-only";
import type { Db, Queryable } from "@/lib/db/db";
import type {
  Alert,
  AlertFigures,
  AlertKind,
  AlertSeverity,
  TerminalState,
} from "@/lib/shared/api/attention";

/**
 * SQL of what needs attention (migration 011): the device tables the mirror's triggers keep,
 * terminal states, stations, alerts. Every read here touches a few small rows (a day's devices,
 * the last hours' minutes), never a scan of the mirror.
 */

const num = (v: unknown) => Number(v ?? 0);

/**
 * Writes the late threshold and the quiet minimum; when the late threshold changed, rebuilds the
 * device tables (answers whether it did).
 */
export async function setAttentionThresholds(
  db: Db,
  seconds: { late: number; quiet: number },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ s: number }>(
      "select extract(epoch from late_after)::float8 as s from attention_settings",
    );
    await tx.query(
      "update attention_settings set late_after = make_interval(secs => $1), quiet_after = make_interval(secs => $2)",
      [seconds.late, seconds.quiet],
    );
    if (row && Math.abs(row.s - seconds.late) < 0.001) return false;
    await tx.query("select attention_recompute()");
    return true;
  });
}

export async function lateAfterSeconds(q: Queryable): Promise<number> {
  const [row] = await q.query<{ s: number }>(
    "select extract(epoch from attention_late_after())::float8 as s",
  );
  return num(row?.s);
}

/** The quiet minimum, in seconds (a terminal silent this long before the night's end is not synced up). */
export async function quietAfterSeconds(q: Queryable): Promise<number> {
  const [row] = await q.query<{ s: number }>(
    "select coalesce((select extract(epoch from quiet_after)::float8 from attention_settings), 600) as s",
  );
  return num(row?.s);
}

/** Every device's newest record and arrival over all days, and its figures of `dayId`. */
export async function deviceDays(q: Queryable, dayId: string | null, earlierIds: string[] = []) {
  const rows = await q.query<{
    device_id: string;
    last_occurred_at: string | null;
    last_created_at: string | null;
    records: number | null;
    money: number | null;
    late_records: number | null;
    refunds: number | null;
    earlier_refunds: number | null;
  }>(
    `select a.device_id, max(a.last_occurred_at) as last_occurred_at, max(a.last_created_at) as last_created_at,
       sum(a.records) filter (where a.day_id = $1)::float8 as records,
       sum(a.money) filter (where a.day_id = $1)::float8 as money,
       sum(a.late_records) filter (where a.day_id = $1)::float8 as late_records,
       sum(a.refunds) filter (where a.day_id = $1)::float8 as refunds,
       sum(a.refunds) filter (where a.day_id = any($2::text[]))::float8 as earlier_refunds
     from a_device_day a group by a.device_id order by a.device_id`,
    [dayId ?? "", earlierIds],
  );
  return rows.map((r) => ({
    device_id: r.device_id,
    last_occurred_at: r.last_occurred_at,
    last_created_at: r.last_created_at,
    /** Refunds of the days `earlierIds` (0 when it had none). */
    earlierRefunds: num(r.earlier_refunds ?? 0),
    today:
      r.records === null
        ? null
        : {
            records: num(r.records),
            money: num(r.money),
            lateRecords: num(r.late_records),
            refunds: num(r.refunds),
          },
  }));
}

/**
 * The minutes between `since` and `until` (now): bounded on both sides, so the planner, which has
 * no statistics on PGlite, reads them through the minute index instead of scanning every minute of
 * the event (and a device whose clock runs ahead does not count minutes that have not come yet).
 */
const MINUTES_BETWEEN = "minute >= $1 and minute <= $2";

/** Records and refunds per device that happened between `since` and `until` (minute buckets), and the first minute of them. */
export async function deviceMinutesSince(q: Queryable, since: Date, until: Date) {
  const rows = await q.query<{ device_id: string; records: number; refunds: number; first: string }>(
    `select device_id, sum(records)::float8 as records, sum(refunds)::float8 as refunds, min(minute) as first
     from a_device_minute where ${MINUTES_BETWEEN} group by device_id`,
    [since.toISOString(), until.toISOString()],
  );
  return new Map(
    rows.map((r) => [r.device_id, { records: num(r.records), refunds: num(r.refunds), first: r.first }]),
  );
}

/**
 * Each device's newest records between `since` and `until`, in whole minutes: the minutes, newest
 * first, that hold its last `count` records (their records, and the first of those minutes). Its rhythm.
 */
export async function deviceNewestRecords(q: Queryable, since: Date, until: Date, count: number) {
  const rows = await q.query<{ device_id: string; records: number; first: string }>(
    `select device_id, sum(records)::float8 as records, min(minute) as first
     from (select device_id, minute, records,
                  sum(records) over (partition by device_id order by minute desc) - records as newer
           from a_device_minute where ${MINUTES_BETWEEN} and records > 0) m
     where newer < $3
     group by device_id`,
    [since.toISOString(), until.toISOString(), count],
  );
  return new Map(rows.map((r) => [r.device_id, { records: num(r.records), first: r.first }]));
}

/** Records per device and hour between `since` and `until` (the sparklines). */
export function deviceHoursSince(q: Queryable, since: Date, until: Date) {
  return q.query<{ device_id: string; hour: string; records: number }>(
    `select device_id, date_trunc('hour', minute) as hour, sum(records)::float8 as records
     from a_device_minute where ${MINUTES_BETWEEN} group by 1, 2 order by 1, 2`,
    [since.toISOString(), until.toISOString()],
  );
}

/** Late records per device and night that arrived since `since`. */
export function lateArrivalsSince(q: Queryable, since: Date) {
  return q.query<{ device_id: string; day_id: string; records: number; money: number }>(
    `select device_id, day_id, sum(records)::float8 as records, sum(money)::float8 as money
     from a_device_late where arrived >= $1 group by 1, 2 order by 1, 2`,
    [since.toISOString()],
  );
}

export interface TerminalStateRow {
  device_id: string;
  state: TerminalState;
  since: string;
  last_occurred_at: string | null;
  last_created_at: string | null;
  figures: {
    normal_gap_s: number | null;
    quiet_after_s: number | null;
    burst: { day_id: string; records: number; money: number }[];
  };
  computed_at: string;
}

export function terminalStates(q: Queryable): Promise<TerminalStateRow[]> {
  return q.query<TerminalStateRow>(
    `select device_id, state, since, last_occurred_at, last_created_at, figures, computed_at
     from terminal_states order by device_id`,
  );
}

/** Replaces the stored states with `rows` (one statement, so a screen never sees half of them). */
export async function saveTerminalStates(q: Queryable, rows: TerminalStateRow[]): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `insert into terminal_states (device_id, state, since, last_occurred_at, last_created_at, figures, computed_at)
     select r.device_id, r.state, r.since, r.last_occurred_at, r.last_created_at, r.figures, r.computed_at
     from jsonb_to_recordset($1::jsonb) as r(device_id text, state text, since timestamptz,
       last_occurred_at timestamptz, last_created_at timestamptz, figures jsonb, computed_at timestamptz)
     on conflict (device_id) do update set state = excluded.state, since = excluded.since,
       last_occurred_at = excluded.last_occurred_at, last_created_at = excluded.last_created_at,
       figures = excluded.figures, computed_at = excluded.computed_at`,
    [JSON.stringify(rows)],
  );
}

export async function stationOverrides(q: Queryable): Promise<Map<string, string>> {
  const rows = await q.query<{ device_id: string; station: string }>(
    "select device_id, station from terminal_stations",
  );
  return new Map(rows.map((r) => [r.device_id, r.station]));
}

/** A manager's station for a terminal; null goes back to the one its device id suggests. */
export async function setStationOverride(
  q: Queryable,
  deviceId: string,
  station: string | null,
  username: string,
  at: Date,
): Promise<void> {
  if (station === null) {
    await q.query("delete from terminal_stations where device_id = $1", [deviceId]);
    return;
  }
  await q.query(
    `insert into terminal_stations (device_id, station, updated_by, updated_at) values ($1, $2, $3, $4)
     on conflict (device_id) do update set station = excluded.station, updated_by = excluded.updated_by,
       updated_at = excluded.updated_at`,
    [deviceId, station, username, at.toISOString()],
  );
}

/** A terminal's latest records of every kind, newest first. */
/** Whether the mirror knows a terminal: a computed state, or a record of it (device ids matched as stored). */
export async function terminalKnown(q: Queryable, deviceId: string): Promise<boolean> {
  const [row] = await q.query<{ known: boolean }>(
    `select exists (select 1 from terminal_states where device_id = $1)
        or exists (select 1 from m_sales where device_id = $1)
        or exists (select 1 from m_topups where device_id = $1)
        or exists (select 1 from m_scans where device_id = $1) as known`,
    [deviceId],
  );
  return row?.known === true;
}

export function terminalRecords(q: Queryable, deviceId: string, limit: number) {
  return q.query<{
    kind: "sale" | "topup" | "withdraw" | "scan";
    id: string;
    occurred_at: string;
    created_at: string;
    amount: number | null;
    status: string;
    day_id: string;
  }>(
    `select * from (
       (select 'sale' as kind, id, occurred_at, created_at, total::float8 as amount, status, day_id
        from m_sales where device_id = $1 order by occurred_at desc limit $2)
       union all
       (select case when direction = 'withdraw' then 'withdraw' else 'topup' end, id, occurred_at, created_at,
          amount::float8, status, day_id
        from m_topups where device_id = $1 order by occurred_at desc limit $2)
       union all
       (select 'scan', id, occurred_at, created_at, null::float8,
          case when allowed then 'allowed' else coalesce(reason, 'denied') end, day_id
        from m_scans where device_id = $1 order by occurred_at desc limit $2)
     ) r order by occurred_at desc, id desc limit $2`,
    [deviceId, limit],
  );
}

/** The latest sign-off of every signed night, with the night's figures now (from the aggregates). */
export async function signedNightsNow(q: Queryable) {
  const rows = await q.query<{
    day_id: string;
    signed_at: string;
    signed_total: number;
    signed_count: number;
    signed_topups: number;
    signed_withdrawals: number;
    total: number | null;
    count: number | null;
    topups: number | null;
    withdrawals: number | null;
  }>(
    `with latest as (
       select distinct on (day_id) day_id, signed_at, snapshot from recon_signoffs order by day_id, id desc
     )
     select l.day_id, l.signed_at,
       (l.snapshot->'figures'->'sales'->>'total')::float8 as signed_total,
       (l.snapshot->'figures'->'sales'->>'count')::float8 as signed_count,
       (l.snapshot->'figures'->'topups'->>'amount')::float8 as signed_topups,
       (l.snapshot->'figures'->'withdrawals'->>'amount')::float8 as signed_withdrawals,
       (select sum(total) from a_sales_hour h where h.day_id = l.day_id)::float8 as total,
       (select sum(count) from a_sales_hour h where h.day_id = l.day_id)::float8 as count,
       (select sum(amount) from a_topups_hour t where t.day_id = l.day_id and t.direction = 'topup')::float8 as topups,
       (select sum(amount) from a_topups_hour t where t.day_id = l.day_id and t.direction = 'withdraw')::float8
         as withdrawals
     from latest l order by l.day_id`,
  );
  return rows.map((r) => ({
    day_id: r.day_id,
    signed_at: r.signed_at,
    signed: {
      total: num(r.signed_total),
      count: num(r.signed_count),
      topups: num(r.signed_topups),
      withdrawals: num(r.signed_withdrawals),
    },
    now: { total: num(r.total), count: num(r.count), topups: num(r.topups), withdrawals: num(r.withdrawals) },
  }));
}

/** Ended nights whose last checksum differs from the upstream summary. */
export function mismatchedEndedNights(q: Queryable, now: Date) {
  return q.query<{ day_id: string; upstream_total: number; mirror_total: number; checked_at: string }>(
    `select c.day_id, (c.upstream->>'total')::float8 as upstream_total, (c.mirror->>'total')::float8 as mirror_total,
       c.checked_at
     from sync_day_checks c join m_days d on d.id = c.day_id
     where not c.matched and d.ends_at <= $1 order by c.day_id`,
    [now.toISOString()],
  );
}

/**
 * Wristbands seen below zero by records that arrived since `since` (a top-up or withdrawal's
 * previous_balance: an offline sale had left them there): how many, and the lowest balance.
 */
export async function negativeBalancesSince(q: Queryable, since: Date) {
  const [row] = await q.query<{ wristbands: number; lowest: number | null }>(
    `select count(distinct wristband_id)::float8 as wristbands, min(previous_balance)::float8 as lowest
     from m_topups where previous_balance < 0 and created_at >= $1`,
    [since.toISOString()],
  );
  return { wristbands: num(row?.wristbands), lowest: row?.lowest ?? null };
}

/** Wristbands waiting in review since before `before`: how many and since when. */
export async function reviewWaitingSince(q: Queryable, before: Date) {
  const [row] = await q.query<{ count: number; oldest: string | null }>(
    `select count(*)::float8 as count, min(updated_at) as oldest from m_review_wristbands
     where status = 'pending_review' and updated_at < $1`,
    [before.toISOString()],
  );
  return { count: num(row?.count), oldest: row?.oldest ?? null };
}

/** The columns of an alert, of the table `t` names (`a.`) or of the only one. */
const alertColumns = (t = "") =>
  `${t}id::text as id, ${t}kind, ${t}subject, ${t}severity, ${t}state, ${t}first_seen, ${t}last_seen,
  ${t}resolved_at, ${t}figures, ${t}link, ${t}acknowledged_by, ${t}acknowledged_at, ${t}ack_comment`;
const ALERT_COLUMNS = alertColumns();

export function openAlerts(q: Queryable): Promise<Alert[]> {
  return q.query<Alert>(`select ${ALERT_COLUMNS} from alerts where state = 'open' order by id`);
}

export interface AlertCondition {
  kind: AlertKind;
  subject: string;
  severity: AlertSeverity;
  figures: AlertFigures;
  link: string;
}

export async function insertAlert(q: Queryable, c: AlertCondition, at: Date): Promise<void> {
  await q.query(
    `insert into alerts (kind, subject, severity, state, first_seen, last_seen, figures, link)
     values ($1, $2, $3, 'open', $4, $4, $5::jsonb, $6)`,
    [c.kind, c.subject, c.severity, at.toISOString(), JSON.stringify(c.figures), c.link],
  );
}

export async function touchAlert(q: Queryable, id: string, c: AlertCondition, at: Date): Promise<void> {
  await q.query(
    "update alerts set last_seen = $2, severity = $3, figures = $4::jsonb, link = $5 where id = $1::bigint",
    [id, at.toISOString(), c.severity, JSON.stringify(c.figures), c.link],
  );
}

export async function resolveAlert(q: Queryable, id: string, at: Date): Promise<void> {
  await q.query(
    "update alerts set state = 'resolved', resolved_at = $2 where id = $1::bigint and state = 'open'",
    [id, at.toISOString()],
  );
}

/** Alerts of the given kinds, open ones first, then the newest; `id`: that one only. */
export function alertsOfKinds(
  q: Queryable,
  kinds: AlertKind[],
  limit: number,
  id?: string,
): Promise<Alert[]> {
  return q.query<Alert>(
    `select ${ALERT_COLUMNS} from alerts where kind = any($1::text[]) and ($3::bigint is null or id = $3::bigint)
     order by (state = 'open') desc, last_seen desc, id desc limit $2`,
    [kinds, limit, id ?? null],
  );
}

export async function countOpenAlerts(q: Queryable, kinds: AlertKind[]) {
  const [row] = await q.query<{ open: number; unacknowledged: number }>(
    `select count(*)::float8 as open, (count(*) filter (where acknowledged_at is null))::float8 as unacknowledged
     from alerts where state = 'open' and kind = any($1::text[])`,
    [kinds],
  );
  return { open: num(row?.open), unacknowledged: num(row?.unacknowledged) };
}

/**
 * Records who acknowledged an alert (of one of `kinds`): the first acknowledgement stands (one row
 * per alert in `alert_acknowledgements`, migration 017; the alert's columns repeat it). Answers the
 * alert and whether this acknowledgement was the one stored, or null when there is no such alert.
 */
export async function acknowledgeAlert(
  q: Queryable,
  id: string,
  kinds: AlertKind[],
  ack: { userId: string; username: string; comment: string; at: Date },
): Promise<{ alert: Alert; created: boolean } | null> {
  const [row] = await q.query<Alert>(
    `with ack as (
       insert into alert_acknowledgements (alert_id, acknowledged_at, user_id, username, comment)
       select id, $4, $6, $3, $5 from alerts where id = $1::bigint and kind = any($2::text[])
       on conflict do nothing
       returning alert_id, acknowledged_at, username, comment
     )
     update alerts a set acknowledged_by = ack.username, acknowledged_at = ack.acknowledged_at,
       ack_comment = ack.comment
     from ack where a.id = ack.alert_id
     returning ${alertColumns("a.")}`,
    [id, kinds, ack.username, ack.at.toISOString(), ack.comment, ack.userId],
  );
  if (row) return { alert: row, created: true };
  const [existing] = await q.query<Alert>(
    `select ${ALERT_COLUMNS} from alerts where id = $1::bigint and kind = any($2::text[])`,
    [id, kinds],
  );
  return existing ? { alert: existing, created: false } : null;
}
