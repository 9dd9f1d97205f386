import { z } from "zod";
import { DayId, DeviceId } from "./params";

/** Answers and requests of the gates' screens (`app/api/gates/*`, issue 28). */

const DayName = z.object({ id: z.string(), name: z.string() });
const ZoneRef = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "not a valid zone id.");

export const ZoneEntries = z.object({
  zone_id: z.string(),
  name: z.string(),
  /** Holders (wristbands, else tickets) whose first allowed scan of the day was in this zone's gates. */
  entered: z.number(),
  capacity: z.number().nullable(),
  /** entered / capacity, in percent (null: no capacity set). */
  percent: z.number().nullable(),
  entries_today: z.number(),
  entries_15_min: z.number(),
  capacity_by: z.string().nullable(),
  capacity_at: z.string().nullable(),
});

export const GateEntries = z.object({
  device_id: z.string(),
  zone_id: z.string(),
  entries_today: z.number(),
  entries_15_min: z.number(),
});

export const EntryBucket = z.object({
  bucket: z.string(),
  zone_id: z.string(),
  device_id: z.string(),
  entries: z.number(),
});

export const ShowRate = z.object({
  ticket_type_id: z.string(),
  name: z.string(),
  valid: z.number(),
  entered: z.number(),
  no_shows: z.number(),
  /** entered / valid (0..1), null when none is valid. */
  show_rate: z.number().nullable(),
});

export const DeniedRow = z.object({
  reason: z.string(),
  zone_id: z.string(),
  device_id: z.string(),
  count: z.number(),
  last_at: z.string(),
});

export const EntriesView = z.object({
  time_zone: z.string(),
  computed_at: z.string(),
  day: DayName.nullable(),
  days: z.array(DayName),
  thresholds: z.array(z.number()),
  unique: z.object({ holders: z.number(), wristbands: z.number(), tickets: z.number() }),
  zones: z.array(ZoneEntries),
  gates: z.array(GateEntries),
  buckets: z.array(EntryBucket),
  show_rates: z.array(ShowRate),
  denied: z.array(DeniedRow),
});
export type EntriesView = z.infer<typeof EntriesView>;

export const GatesDayQuery = z.object({ day_id: DayId.optional() });

export const CapacityChange = z.object({
  zone_id: ZoneRef,
  /** People; null removes the capacity. */
  capacity: z.number().int().min(1).max(10_000_000).nullable(),
});

export const WalkPair = z.object({
  zone_a: ZoneRef,
  zone_b: ZoneRef,
  min_s: z.number().int().min(1).max(3600),
});

export const GateSettings = z.object({
  walk_min_s: z.number().int().min(1).max(3600),
  double_swipe_s: z.number().int().min(1).max(300),
  burst_count: z.number().int().min(2).max(1000),
  burst_window_s: z.number().int().min(10).max(3600),
  /** Percent of capacity, ascending, at most five. */
  thresholds: z
    .array(z.number().int().min(1).max(500))
    .min(1)
    .max(5)
    .refine((t) => t.every((v, i) => i === 0 || v > t[i - 1]!), "thresholds must ascend."),
  pairs: z
    .array(WalkPair)
    .max(100)
    .refine((ps) => ps.every((p) => p.zone_a !== p.zone_b), "a pair needs two zones."),
});
export type GateSettings = z.infer<typeof GateSettings>;

export const GateSettingsView = GateSettings.extend({
  updated_by: z.string().nullable(),
  updated_at: z.string().nullable(),
});

export const ScanLine = z.object({
  id: z.string(),
  kind: z.string(),
  allowed: z.boolean(),
  reason: z.string().nullable(),
  ticket_code: z.string().nullable(),
  wristband_id: z.string().nullable(),
  zone_id: z.string().nullable(),
  device_id: z.string().nullable(),
  day_id: z.string(),
  occurred_at: z.string(),
  created_at: z.string(),
});

export const GateScansQuery = z.object({
  day_id: DayId.optional(),
  device_id: DeviceId.optional(),
  reason: z
    .string()
    .regex(/^[a-z_]{1,60}$/, "not a valid reason.")
    .optional(),
  allowed: z.enum(["true", "false"]).optional(),
});

export const GateScans = z.object({ time_zone: z.string(), scans: z.array(ScanLine) });

export const misuseKinds = [
  "impossible_walk",
  "double_checkin",
  "double_swipe",
  "offline_double_spend",
  "denied_burst",
] as const;
export const MisuseKind = z.enum(misuseKinds);

export const EvidenceLine = z.object({
  resource: z.enum(["scans", "sales", "topups"]),
  id: z.string(),
  device_id: z.string().nullable(),
  zone_id: z.string().nullable(),
  wristband_id: z.string().nullable(),
  ticket_code: z.string().nullable(),
  /** A scan's reason or kind, a sale's type, a top-up's direction. */
  detail: z.string().nullable(),
  /** A sale's total, a top-up's new balance (cents). */
  amount: z.number().nullable(),
  allowed: z.boolean().nullable(),
  occurred_at: z.string(),
  created_at: z.string(),
});

export const MisuseCaseView = z.object({
  id: z.string(),
  kind: MisuseKind,
  subject: z.string(),
  severity: z.enum(["info", "warning", "critical"]),
  first_at: z.string(),
  last_at: z.string(),
  detected_at: z.string(),
  figures: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
  alert_id: z.string().nullable(),
  alert_state: z.string().nullable(),
  /** In the list, the first LIST_EVIDENCE records; in one case's view, all of them. */
  evidence: z.array(EvidenceLine),
  /** How many records the case holds (a burst or an offline spend can hold a hundred). */
  evidence_total: z.number().int().nonnegative(),
});

export const MisuseQuery = z.object({
  case: z
    .string()
    .regex(/^[0-9]{1,18}$/, "not a valid case id.")
    .optional(),
});

export const MisuseList = z.object({
  time_zone: z.string(),
  currency: z.string(),
  zones: z.array(z.object({ id: z.string(), name: z.string() })),
  cases: z.array(MisuseCaseView),
});
export type MisuseList = z.infer<typeof MisuseList>;
