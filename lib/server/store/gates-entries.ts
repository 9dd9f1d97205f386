import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { ScanFact } from "./gates-facts";

/**
 * SQL of the gates' figures (migration 023): entries per 5 minutes, first entries per zone and day,
 * denied scans by reason and gate, zone capacities, show rates. Each read is one day's small
 * aggregate rows; the show rate reads the day's valid tickets (a screen's question, not a cycle's).
 */

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));
const num = (v: unknown) => Number(v ?? 0);

export interface ZoneCapacityRow {
  zone_id: string;
  name: string;
  capacity: number | null;
  entered: number;
  updated_by: string | null;
  updated_at: string | null;
}

/** Every zone of the catalog (and any a scan named), its capacity and who entered it on the day. */
export async function capacityOfDay(q: Queryable, dayId: string): Promise<ZoneCapacityRow[]> {
  const rows = await q.query<ZoneCapacityRow>(
    `select z.zone_id, coalesce(mz.name, z.zone_id) as name, c.capacity, coalesce(d.entered, 0)::float8 as entered,
       c.updated_by, c.updated_at
     from (select id as zone_id from m_zones union select zone_id from g_zone_day where day_id = $1 and zone_id <> ''
           union select zone_id from gate_capacity) z
     left join m_zones mz on mz.id = z.zone_id
     left join gate_capacity c on c.zone_id = z.zone_id
     left join g_zone_day d on d.day_id = $1 and d.zone_id = z.zone_id
     order by 2`,
    [dayId],
  );
  return rows.map((r) => ({
    ...r,
    capacity: r.capacity === null ? null : num(r.capacity),
    entered: num(r.entered),
    updated_at: r.updated_at === null ? null : iso(r.updated_at),
  }));
}

export function zoneNames(q: Queryable) {
  return q.query<{ id: string; name: string }>("select id, name from m_zones order by name");
}

export async function zoneKnown(q: Queryable, zoneId: string): Promise<boolean> {
  const [row] = await q.query("select 1 from m_zones where id = $1", [zoneId]);
  return row !== undefined;
}

/** Sets (or with null removes) a zone's capacity. */
export async function setCapacity(
  q: Queryable,
  zoneId: string,
  capacity: number | null,
  by: string,
  at: Date,
): Promise<void> {
  if (capacity === null) {
    await q.query("delete from gate_capacity where zone_id = $1", [zoneId]);
    return;
  }
  await q.query(
    `insert into gate_capacity (zone_id, capacity, updated_by, updated_at) values ($1, $2, $3, $4)
     on conflict (zone_id) do update set capacity = excluded.capacity, updated_by = excluded.updated_by,
       updated_at = excluded.updated_at`,
    [zoneId, capacity, by, at.toISOString()],
  );
}

/** Holders who entered on the day: in any zone (zone ''), and how many of them are wristbands. */
export async function uniqueEntered(q: Queryable, dayId: string) {
  const [row] = await q.query<{ holders: number; wristbands: number; tickets: number }>(
    `select count(*)::float8 as holders, (count(*) filter (where holder not like 't:%'))::float8 as wristbands,
       count(distinct ticket_code)::float8 as tickets
     from g_first_entries where day_id = $1 and zone_id = ''`,
    [dayId],
  );
  return { holders: num(row?.holders), wristbands: num(row?.wristbands), tickets: num(row?.tickets) };
}

/** Allowed scans per 5 minutes, zone and device on the day. */
export async function entriesOfDay(q: Queryable, dayId: string) {
  const rows = await q.query<{ bucket: string; zone_id: string; device_id: string; entries: number }>(
    `select bucket, zone_id, device_id, entries::float8 as entries from g_entries_5min where day_id = $1
     order by bucket, zone_id, device_id`,
    [dayId],
  );
  return rows.map((r) => ({ ...r, bucket: iso(r.bucket), entries: num(r.entries) }));
}

/** Denied scans of the day by reason, zone and device. */
export async function deniedOfDay(q: Queryable, dayId: string) {
  const rows = await q.query<{
    reason: string;
    zone_id: string;
    device_id: string;
    count: number;
    last_at: string;
  }>(
    `select reason, zone_id, device_id, count::float8 as count, last_at from g_denied where day_id = $1
     order by count desc, reason, device_id`,
    [dayId],
  );
  return rows.map((r) => ({ ...r, count: num(r.count), last_at: iso(r.last_at) }));
}

/** Per ticket type: tickets valid on the day (not cancelled) and how many of them entered. */
export async function showRates(q: Queryable, dayId: string) {
  const rows = await q.query<{ ticket_type_id: string; name: string; valid: number; entered: number }>(
    `with entered as (
       select distinct ticket_code from g_first_entries where day_id = $1 and zone_id = '' and ticket_code is not null
     )
     select t.ticket_type_id, coalesce(tt.name, t.ticket_type_id) as name, count(*)::float8 as valid,
       count(e.ticket_code)::float8 as entered
     from m_tickets t
     left join m_ticket_types tt on tt.id = t.ticket_type_id
     left join entered e on e.ticket_code = t.code
     where t.status <> 'cancelled' and t.data->'valid_days' @> jsonb_build_array(jsonb_build_object('id', $1::text))
     group by 1, 2 order by 2`,
    [dayId],
  );
  return rows.map((r) => ({ ...r, valid: num(r.valid), entered: num(r.entered) }));
}

/** Scans of the day, newest first: of one device and reason (allowed or not), or the given ids. */
export async function scansOf(
  q: Queryable,
  f: { dayId: string | null; deviceId?: string; reason?: string; allowed?: boolean; ids?: string[] },
  limit: number,
) {
  const rows = await q.query<ScanFact>(
    `select id, kind, allowed, reason, ticket_code, wristband_id, zone_id, device_id, day_id, occurred_at, created_at
     from m_scans
     where ($1::text is null or day_id = $1) and ($2::text is null or device_id = $2)
       and ($3::text is null or reason = $3) and ($4::boolean is null or allowed = $4)
       and ($5::text[] is null or id = any($5::text[]))
     order by occurred_at desc, id desc limit $6`,
    [f.dayId, f.deviceId ?? null, f.reason ?? null, f.allowed ?? null, f.ids ?? null, limit],
  );
  return rows.map((r) => ({ ...r, occurred_at: iso(r.occurred_at), created_at: iso(r.created_at) }));
}

/** Misuse cases, newest first (optionally one). */
export async function misuseCases(q: Queryable, limit: number, caseId?: string) {
  const rows = await q.query<{
    id: string;
    kind: string;
    subject: string;
    severity: string;
    first_at: string;
    last_at: string;
    detected_at: string;
    figures: Record<string, string | number | null>;
    evidence: { resource: "scans" | "sales" | "topups"; id: string }[];
    alert_id: string | null;
    alert_state: string | null;
  }>(
    `select m.id::text, m.kind, m.subject, m.severity, m.first_at, m.last_at, m.detected_at, m.figures, m.evidence,
       m.alert_id::text, a.state as alert_state
     from misuse_cases m left join alerts a on a.id = m.alert_id
     where ($2::bigint is null or m.id = $2::bigint)
     order by m.detected_at desc, m.id desc limit $1`,
    [limit, caseId ?? null],
  );
  return rows.map((r) => ({
    ...r,
    first_at: iso(r.first_at),
    last_at: iso(r.last_at),
    detected_at: iso(r.detected_at),
  }));
}

/** The evidence records: a line each, whatever its resource. */
export async function evidenceRecords(q: Queryable, refs: { resource: string; id: string }[]) {
  const ids = (r: string) => refs.filter((x) => x.resource === r).map((x) => x.id);
  const rows = await q.query<{
    resource: "scans" | "sales" | "topups";
    id: string;
    device_id: string | null;
    zone_id: string | null;
    wristband_id: string | null;
    ticket_code: string | null;
    detail: string | null;
    amount: number | null;
    allowed: boolean | null;
    occurred_at: string;
    created_at: string;
  }>(
    `select 'scans' as resource, id, device_id, zone_id, wristband_id, ticket_code, coalesce(reason, kind) as detail,
       null::float8 as amount, allowed, occurred_at, created_at from m_scans where id = any($1::text[])
     union all
     select 'sales', id, device_id, null, wristband_id, null, type, total::float8, null, occurred_at, created_at
       from m_sales where id = any($2::text[])
     union all
     select 'topups', id, device_id, null, wristband_id, null, direction, new_balance::float8, null, occurred_at,
       created_at from m_topups where id = any($3::text[])
     order by occurred_at, id`,
    [ids("scans"), ids("sales"), ids("topups")],
  );
  return rows.map((r) => ({
    ...r,
    amount: r.amount === null ? null : num(r.amount),
    occurred_at: iso(r.occurred_at),
    created_at: iso(r.created_at),
  }));
}
