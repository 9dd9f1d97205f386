import "server-only";
import type { Queryable } from "@/lib/db/db";
import { SALE_COLUMNS, type SaleFact, SCAN_COLUMNS, type ScanFact, saleRow, scanRow } from "./gates-facts";

/**
 * What the misuse rules read for one batch of the queue (its ids): only the records that can take
 * part in a case, and their neighbours by index. A record with no possible partner (no scan of its
 * holder at another zone in reach, no other charge of its band at its terminal) stays in the store:
 * each value a batch carries back costs the step time, and almost every record is innocent.
 * Each per-key lookup reads its table as `m` and ends with ONE_LOOKUP_PER_KEY.
 */

/**
 * `offset 0` keeps a per-key subquery a lookup by index per key: flattened into a join, the planner
 * (which cannot see the keys' time ranges) swapped the lookups for a scan of the whole table at about
 * 190 keys, 0.7 s at a million scans.
 */
const ONE_LOOKUP_PER_KEY = "offset 0";

const seconds = (ms: number) => `${Math.ceil(ms / 1000)} seconds`;

/** Fresh records with a possible partner, and every such partner (fresh ones among them too). */
export interface Candidates<T> {
  fresh: T[];
  neighbours: T[];
}

/**
 * The batch's rows of `table` ($1: ids) that pass `fresh` and have a partner, a row `m` of the same
 * table that passes `partner` for the fresh row `f` (looked up per fresh row), then every partner:
 * flagged `fresh` or not.
 */
function candidatesSql(table: string, columns: string, fresh: string, partner: string): string {
  return `with fresh as (
      select ${columns} from ${table} f where f.id = any($1::text[]) and ${fresh}
    ), pairs as (
      select f.id as fresh_id, n.* from fresh f cross join lateral (
        select ${columns} from ${table} m where ${partner} ${ONE_LOOKUP_PER_KEY}) n
    )
    select ${columns}, true as fresh from fresh where id in (select fresh_id from pairs)
    union all
    select distinct ${columns}, false as fresh from pairs`;
}

function splitCandidates<T extends { id: string }>(rows: (T & { fresh: boolean })[]): Candidates<T> {
  const neighbours = new Map<string, T>();
  const fresh: T[] = [];
  for (const { fresh: isFresh, ...row } of rows) {
    if (isFresh) fresh.push(row as unknown as T);
    else neighbours.set(row.id, row as unknown as T);
  }
  return { fresh, neighbours: [...neighbours.values()] };
}

/** Per device and event day (`device|day`), the smallest arrival delay among the batch's scans. */
export async function batchScanDelays(q: Queryable, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await q.query<{ device_id: string; day_id: string; d: number }>(
    `select device_id, day_id, min(extract(epoch from created_at - occurred_at) * 1000)::float8 as d
     from m_scans where id = any($1::text[]) and device_id is not null group by device_id, day_id`,
    [ids],
  );
  return new Map(rows.map((r) => [`${r.device_id}|${r.day_id}`, Math.round(Number(r.d))]));
}

/**
 * The batch's allowed scans whose holder was allowed at another zone, by another device (or one
 * without a device), within `spanMs`, and those other scans: the only scans an impossible walk can
 * be made of.
 */
export async function walkCandidates(
  q: Queryable,
  ids: string[],
  spanMs: number,
): Promise<Candidates<ScanFact>> {
  if (!ids.length) return { fresh: [], neighbours: [] };
  const rows = await q.query<ScanFact & { fresh: boolean }>(
    candidatesSql(
      "m_scans",
      SCAN_COLUMNS,
      "f.allowed and f.zone_id is not null and coalesce(f.wristband_id, f.ticket_code) is not null",
      `coalesce(m.wristband_id, 't:' || m.ticket_code) = coalesce(f.wristband_id, 't:' || f.ticket_code)
       and m.occurred_at between f.occurred_at - $2::interval and f.occurred_at + $2::interval
       and m.allowed and coalesce(m.wristband_id, m.ticket_code) is not null and m.zone_id <> f.zone_id
       and (m.device_id is null or m.device_id is distinct from f.device_id)`,
    ),
    [ids, seconds(spanMs)],
  );
  return splitCandidates(rows.map((r) => ({ ...scanRow(r), fresh: r.fresh })));
}

/** Every allowed check-in of the tickets checked in by the batch that have more than one. */
export async function repeatedCheckIns(q: Queryable, ids: string[]): Promise<ScanFact[]> {
  if (!ids.length) return [];
  const rows = await q.query<ScanFact>(
    `select ${SCAN_COLUMNS} from (
       select c.*, count(*) over (partition by c.ticket_code) as check_ins
       from (select distinct ticket_code from m_scans
             where id = any($1::text[]) and kind = 'check_in' and allowed and ticket_code is not null) t
       cross join lateral (
         select ${SCAN_COLUMNS} from m_scans m
         where ticket_code = t.ticket_code and kind = 'check_in' and allowed ${ONE_LOOKUP_PER_KEY}) c
     ) x where check_ins > 1`,
    [ids],
  );
  return rows.map(scanRow);
}

/** The batch's denied scans of a device (what a burst is made of). */
export async function deniedOfBatch(q: Queryable, ids: string[]): Promise<ScanFact[]> {
  if (!ids.length) return [];
  const rows = await q.query<ScanFact>(
    `select ${SCAN_COLUMNS} from m_scans where id = any($1::text[]) and not allowed and device_id is not null`,
    [ids],
  );
  return rows.map(scanRow);
}

/** Denied scans of each device and reason within `spanMs` of each given time. */
export async function deniedAround(
  q: Queryable,
  around: { device: string; reason: string | null; at: string }[],
  spanMs: number,
): Promise<ScanFact[]> {
  if (!around.length) return [];
  const rows = await q.query<ScanFact>(
    `select distinct s.* from unnest($1::text[], $2::text[], $3::timestamptz[]) a(device, reason, at)
     cross join lateral (
       select ${SCAN_COLUMNS} from m_scans m
       where device_id = a.device and not allowed and reason = a.reason
         and occurred_at between a.at - $4::interval and a.at + $4::interval
       ${ONE_LOOKUP_PER_KEY}) s`,
    [around.map((a) => a.device), around.map((a) => a.reason), around.map((a) => a.at), seconds(spanMs)],
  );
  return rows.map(scanRow);
}

/**
 * The usual denials per window of each device and reason: its denials of the event day before the
 * window (every zone) over the day's time so far, per `windowMs`. Keyed `device|reason`.
 */
export async function normalDenials(
  q: Queryable,
  keys: { device: string; reason: string; day: string; from: string }[],
  windowMs: number,
): Promise<Map<string, number>> {
  if (!keys.length) return new Map();
  const rows = await q.query<{ device: string; reason: string; rate: number }>(
    `select k.device, k.reason,
       greatest(0, coalesce(sum(d.count), 0) - (select count(*) from m_scans s where s.device_id = k.device
         and not s.allowed and s.reason = k.reason and s.occurred_at >= k.from_at))::float8
       / greatest(extract(epoch from k.from_at - dd.starts_at) * 1000, $5::float8) * $5::float8 as rate
     from unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) k(device, reason, day, from_at)
     join m_days dd on dd.id = k.day
     left join g_denied d on d.day_id = k.day and d.device_id = k.device and d.reason = k.reason
     group by k.device, k.reason, k.from_at, dd.starts_at`,
    [
      keys.map((k) => k.device),
      keys.map((k) => k.reason),
      keys.map((k) => k.day),
      keys.map((k) => k.from),
      windowMs,
    ],
  );
  const out = new Map<string, number>();
  for (const r of rows)
    out.set(`${r.device}|${r.reason}`, Math.max(out.get(`${r.device}|${r.reason}`) ?? 0, Number(r.rate)));
  return out;
}

/** A completed wristband charge of a terminal (the sales of table alias `t` a double swipe can be). */
const charge = (t: string) =>
  `${t}.status = 'completed' and ${t}.type = 'cart' and ${t}.payment_method = 'wristband' and ${t}.device_id is not null`;

/**
 * The batch's wristband charges that the same terminal charged to the same band for the same amount
 * within `spanMs`, and those other charges: the only sales a double swipe can be made of.
 */
export async function swipeCandidates(
  q: Queryable,
  ids: string[],
  spanMs: number,
): Promise<Candidates<SaleFact>> {
  if (!ids.length) return { fresh: [], neighbours: [] };
  const rows = await q.query<SaleFact & { fresh: boolean }>(
    candidatesSql(
      "m_sales",
      SALE_COLUMNS,
      charge("f"),
      `m.wristband_id = f.wristband_id and m.device_id = f.device_id
       and m.occurred_at between f.occurred_at - $2::interval and f.occurred_at + $2::interval
       and m.id <> f.id and m.total = f.total and ${charge("m")}`,
    ),
    [ids, seconds(spanMs)],
  );
  return splitCandidates(rows.map((r) => ({ ...saleRow(r), fresh: r.fresh })));
}

/** The wristbands of the batch's sales that arrived more than `lateMs` after they were made (offline). */
export async function lateWristbands(q: Queryable, ids: string[], lateMs: number): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await q.query<{ wristband_id: string }>(
    `select distinct wristband_id from m_sales
     where id = any($1::text[]) and wristband_id is not null
       and created_at - occurred_at > $2::float8 * interval '1 millisecond'
     order by wristband_id`,
    [ids, lateMs],
  );
  return rows.map((r) => r.wristband_id);
}
