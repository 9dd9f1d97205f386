import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { GateRuleSettings, MisuseCase, SaleFact, TopupFact } from "./gates-facts";
import { iso, SALE_COLUMNS, saleRow } from "./gates-facts";

/**
 * SQL of the misuse rules (migration 023): the settings, the queue the mirror's triggers fill, one
 * wristband's money, the devices' clocks, the cases and their alerts. A batch's records and their
 * neighbours are read in gates-batch-reads.ts.
 */

export type {
  EvidenceRef,
  GateRuleSettings,
  MisuseCase,
  MisuseKind,
  SaleFact,
  ScanFact,
  TopupFact,
} from "./gates-facts";

export interface GateSettingsRow {
  rules: GateRuleSettings;
  thresholds: number[];
  updated_by: string | null;
  updated_at: string | null;
  pairs: { zone_a: string; zone_b: string; min_s: number }[];
}

export async function gateSettings(q: Queryable): Promise<GateSettingsRow> {
  const [[s], pairs] = await Promise.all([
    q.query<{
      walk_min_s: number;
      double_swipe_s: number;
      burst_count: number;
      burst_window_s: number;
      thresholds: number[];
      updated_by: string | null;
      updated_at: Date | string | null;
    }>("select * from gate_settings"),
    q.query<{ zone_a: string; zone_b: string; min_s: number }>(
      "select zone_a, zone_b, min_s from gate_walk_pairs order by zone_a, zone_b",
    ),
  ]);
  if (!s) throw new Error("gate_settings has no row (migration 023).");
  return {
    rules: {
      walkMinMs: s.walk_min_s * 1000,
      walkPairs: new Map(pairs.map((p) => [`${p.zone_a}|${p.zone_b}`, p.min_s * 1000])),
      doubleSwipeMs: s.double_swipe_s * 1000,
      burstCount: s.burst_count,
      burstWindowMs: s.burst_window_s * 1000,
    },
    thresholds: s.thresholds.map(Number),
    updated_by: s.updated_by,
    updated_at: s.updated_at === null ? null : iso(s.updated_at),
    pairs,
  };
}

export async function saveGateSettings(
  q: Queryable,
  s: {
    walk_min_s: number;
    double_swipe_s: number;
    burst_count: number;
    burst_window_s: number;
    thresholds: number[];
    pairs: { zone_a: string; zone_b: string; min_s: number }[];
  },
  by: string,
  at: Date,
): Promise<void> {
  await q.query(
    `update gate_settings set walk_min_s = $1, double_swipe_s = $2, burst_count = $3, burst_window_s = $4,
       thresholds = $5::int[], updated_by = $6, updated_at = $7`,
    [s.walk_min_s, s.double_swipe_s, s.burst_count, s.burst_window_s, s.thresholds, by, at.toISOString()],
  );
  await q.query("delete from gate_walk_pairs");
  for (const p of s.pairs) {
    const [a, b] = p.zone_a < p.zone_b ? [p.zone_a, p.zone_b] : [p.zone_b, p.zone_a];
    await q.query(
      `insert into gate_walk_pairs (zone_a, zone_b, min_s) values ($1, $2, $3)
       on conflict (zone_a, zone_b) do update set min_s = excluded.min_s`,
      [a, b, p.min_s],
    );
  }
}

/**
 * Takes up to `limit` records off the rules' queue (their ids, by resource): read in key order
 * through the primary key, then deleted by key (a semi-join planned as a scan of the queue cost
 * seconds once a first mirror had passed through it).
 */
export async function takeQueue(q: Queryable, limit: number): Promise<{ scans: string[]; sales: string[] }> {
  const rows = await q.query<{ resource: "scans" | "sales"; id: string }>(
    "select resource, id from g_misuse_queue order by resource, id limit $1",
    [limit],
  );
  const scans = rows.filter((r) => r.resource === "scans").map((r) => r.id);
  const sales = rows.filter((r) => r.resource === "sales").map((r) => r.id);
  if (scans.length)
    await q.query("delete from g_misuse_queue where resource = 'scans' and id = any($1::text[])", [scans]);
  if (sales.length)
    await q.query("delete from g_misuse_queue where resource = 'sales' and id = any($1::text[])", [sales]);
  return { scans, sales };
}

/** Reclaims the queue's dead rows after a large drain (PGlite runs no autovacuum); outside a transaction. */
export async function vacuumQueue(db: Queryable): Promise<void> {
  await db.query("vacuum g_misuse_queue");
}

export async function queueLength(q: Queryable): Promise<number> {
  const [row] = await q.query<{ n: number }>("select count(*)::float8 as n from g_misuse_queue");
  return Number(row?.n ?? 0);
}

/** One wristband's sales and top-ups (the balance replay of offlineDoubleSpends). */
export async function wristbandMoney(q: Queryable, wristbandId: string) {
  const [sales, topups] = await Promise.all([
    q.query<SaleFact>(`select ${SALE_COLUMNS} from m_sales where wristband_id = $1`, [wristbandId]),
    q.query<TopupFact>(
      `select id, direction, amount, new_balance, payment_method, status, wristband_id, device_id, occurred_at,
         created_at from m_topups where wristband_id = $1`,
      [wristbandId],
    ),
  ]);
  return {
    sales: sales.map(saleRow),
    topups: topups.map((t) => ({
      ...t,
      amount: Number(t.amount),
      new_balance: Number(t.new_balance),
      occurred_at: iso(t.occurred_at),
      created_at: iso(t.created_at),
    })),
  };
}

/** The stored smallest delays of these devices on these days, keyed `device|day`. */
export async function deviceDelays(q: Queryable, keys: { device: string; day: string }[]) {
  if (!keys.length) return new Map<string, number>();
  const rows = await q.query<{ device_id: string; day_id: string; d: number }>(
    `select c.device_id, c.day_id, c.smallest_delay_ms::float8 as d from g_device_clock c
     join unnest($1::text[], $2::text[]) k(device, day) on c.device_id = k.device and c.day_id = k.day`,
    [keys.map((k) => k.device), keys.map((k) => k.day)],
  );
  return new Map(rows.map((r) => [`${r.device_id}|${r.day_id}`, Number(r.d)]));
}

export async function saveDeviceDelays(q: Queryable, delays: Map<string, number>): Promise<void> {
  if (!delays.size) return;
  const keys = [...delays.keys()].map((k) => k.split("|"));
  await q.query(
    `insert into g_device_clock as c (device_id, day_id, smallest_delay_ms)
     select * from unnest($1::text[], $2::text[], $3::bigint[])
     on conflict (device_id, day_id) do update set smallest_delay_ms = least(c.smallest_delay_ms, excluded.smallest_delay_ms)`,
    [keys.map((k) => k[0]), keys.map((k) => k[1]), [...delays.values()].map((v) => Math.round(v))],
  );
}

/** An existing denied-burst case of the same device and reason that overlaps this one in time. */
export async function overlappingBurst(
  q: Queryable,
  c: MisuseCase,
  windowMs: number,
): Promise<string | null> {
  const [row] = await q.query<{ case_key: string }>(
    `select case_key from misuse_cases where kind = 'denied_burst' and subject = $1
       and last_at >= $2::timestamptz - $4::interval and first_at <= $3::timestamptz + $4::interval
     order by last_at desc limit 1`,
    [c.subject, c.firstAt, c.lastAt, `${Math.ceil(windowMs / 1000)} seconds`],
  );
  return row?.case_key ?? null;
}

export interface StoredCase {
  id: string;
  inserted: boolean;
  alert_id: string | null;
}

/**
 * Writes a case by its key: a new one, or the same one with its evidence merged (a pair found
 * again, a burst that went on, a third check-in of the ticket).
 */
export async function upsertCase(q: Queryable, c: MisuseCase, at: Date): Promise<StoredCase> {
  const [row] = await q.query<{ id: string; inserted: boolean; alert_id: string | null }>(
    `insert into misuse_cases as m (kind, case_key, subject, severity, first_at, last_at, detected_at, updated_at,
       figures, evidence)
     values ($1, $2, $3, $4, $5, $6, $7, $7, $8::jsonb, $9::jsonb)
     on conflict (case_key) do update set
       first_at = least(m.first_at, excluded.first_at), last_at = greatest(m.last_at, excluded.last_at),
       figures = m.figures || excluded.figures,
       evidence = (select coalesce(jsonb_agg(distinct e), '[]'::jsonb)
                   from jsonb_array_elements(m.evidence || excluded.evidence) e),
       updated_at = case when (m.evidence @> excluded.evidence) then m.updated_at else excluded.updated_at end
     returning id::text, (xmax = 0) as inserted, alert_id::text`,
    [
      c.kind,
      c.key,
      c.subject,
      c.severity,
      c.firstAt,
      c.lastAt,
      at.toISOString(),
      JSON.stringify(c.figures),
      JSON.stringify(c.evidence),
    ],
  );
  return { id: row!.id, inserted: row!.inserted, alert_id: row!.alert_id };
}

/** Opens a case's alert and links the case to it, in one statement. */
export async function insertCaseAlert(
  q: Queryable,
  caseId: string,
  c: { kind: string; subject: string; severity: string; figures: Record<string, unknown>; link: string },
  at: Date,
): Promise<void> {
  await q.query(
    `with a as (
       insert into alerts (kind, subject, severity, state, first_seen, last_seen, figures, link)
       values ($1, $2, $3, 'open', $4, $4, $5::jsonb, $6) returning id
     )
     update misuse_cases set alert_id = a.id from a where misuse_cases.id = $7::bigint`,
    [c.kind, c.subject, c.severity, at.toISOString(), JSON.stringify(c.figures), c.link, caseId],
  );
}

/** The id of the open alert of a kind and subject (the one just opened). */
export async function openAlertId(q: Queryable, kind: string, subject: string): Promise<string | null> {
  const [row] = await q.query<{ id: string }>(
    "select id::text from alerts where kind = $1 and subject = $2 and state = 'open'",
    [kind, subject],
  );
  return row?.id ?? null;
}

/** Open alerts of these kinds whose case has had no new evidence since `before`. */
export async function staleMisuseAlerts(q: Queryable, kinds: string[], before: Date): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `select a.id::text from alerts a left join misuse_cases m on m.alert_id = a.id
     where a.state = 'open' and a.kind = any($1::text[]) and (m.id is null or m.updated_at < $2)`,
    [kinds, before.toISOString()],
  );
  return rows.map((r) => r.id);
}
