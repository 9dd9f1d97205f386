import { z } from "zod";
import { typedText } from "./params";
import { MirrorFreshness } from "./sales";

/** Answers of the terminals and alerts screens (`app/api/terminals/*`, `app/api/alerts/*`). */

export const stations = ["bar", "food", "merch", "topup", "gate", "other"] as const;
export const Station = z.enum(stations);
export type Station = z.infer<typeof Station>;

export const terminalStates = ["live", "quiet", "late", "back", "idle"] as const;
export const TerminalState = z.enum(terminalStates);
export type TerminalState = z.infer<typeof TerminalState>;

const NightMoved = z.object({ day_id: z.string(), records: z.number(), money: z.number() });

export const TerminalRow = z.object({
  device_id: z.string(),
  station: Station,
  /** The station comes from a manager's choice (else from the device id). */
  station_overridden: z.boolean(),
  state: TerminalState,
  /** When the current state began. */
  since: z.string(),
  records_today: z.number(),
  money_today: z.number(),
  late_today: z.number(),
  /** Share of today's records that arrived late (0..1). */
  late_share: z.number(),
  /** Newest record's occurred_at: the terminal is synced up to here. */
  last_occurred_at: z.string().nullable(),
  /** Newest arrival at the upstream (created_at). */
  last_created_at: z.string().nullable(),
  normal_gap_s: z.number().nullable(),
  quiet_after_s: z.number().nullable(),
  /** For a terminal back from offline: what its burst moved, per night. */
  burst: z.array(NightMoved),
  /** Records per hour over the last hours, oldest first. */
  sparkline: z.array(z.number()),
});
export type TerminalRow = z.infer<typeof TerminalRow>;

const DayName = z.object({ id: z.string(), name: z.string() });

export const TerminalsView = z.object({
  computed_at: z.string().nullable(),
  currency: z.string(),
  time_zone: z.string(),
  /** The event's days, to name the nights a burst moved. */
  days: z.array(DayName),
  terminals: z.array(TerminalRow),
  /** The states are as fresh as the mirror they are computed from. */
  freshness: MirrorFreshness,
});
export type TerminalsView = z.infer<typeof TerminalsView>;

export const TerminalRecord = z.object({
  kind: z.enum(["sale", "topup", "withdraw", "scan"]),
  id: z.string(),
  occurred_at: z.string(),
  created_at: z.string(),
  amount: z.number().nullable(),
  status: z.string(),
  day_id: z.string(),
  late: z.boolean(),
});

export const TerminalDetail = z.object({
  terminal: TerminalRow.nullable(),
  device_id: z.string(),
  currency: z.string(),
  time_zone: z.string(),
  days: z.array(DayName),
  records: z.array(TerminalRecord),
});
export type TerminalDetail = z.infer<typeof TerminalDetail>;

export const StationChange = z.object({ station: Station.nullable() });

export const alertKinds = [
  "terminal_quiet",
  "terminal_late",
  "signed_night_moved",
  "night_mismatch",
  "sync_stalled",
  "sync_failing",
  "sync_quota",
  "refund_spike",
  "negative_balance",
  "review_waiting",
  // The gates (issue 28): raised by lib/server/gates, not by the attention rules.
  "zone_capacity",
  "impossible_walk",
  "double_checkin",
  "double_swipe",
  "offline_double_spend",
  "denied_burst",
] as const;
export const AlertKind = z.enum(alertKinds);
export type AlertKind = z.infer<typeof AlertKind>;

export const alertSeverities = ["info", "warning", "critical"] as const;
export const AlertSeverity = z.enum(alertSeverities);
export type AlertSeverity = z.infer<typeof AlertSeverity>;

/** The figures that raised an alert: numbers and short identifiers only. */
export const AlertFigures = z.record(z.string(), z.union([z.number(), z.string(), z.null()]));
export type AlertFigures = z.infer<typeof AlertFigures>;

export const Alert = z.object({
  id: z.string(),
  kind: AlertKind,
  subject: z.string(),
  severity: AlertSeverity,
  state: z.enum(["open", "resolved"]),
  first_seen: z.string(),
  last_seen: z.string(),
  resolved_at: z.string().nullable(),
  figures: AlertFigures,
  link: z.string(),
  acknowledged_by: z.string().nullable(),
  acknowledged_at: z.string().nullable(),
  ack_comment: z.string().nullable(),
});
export type Alert = z.infer<typeof Alert>;

export const AlertsView = z.object({
  currency: z.string(),
  time_zone: z.string(),
  days: z.array(DayName),
  /** Open alerts of the role's kinds in all (the list holds the newest ALERTS_ON_PAGE). */
  open: z.number(),
  alerts: z.array(Alert),
  /** The alerts are as fresh as the mirror they are evaluated on. */
  freshness: MirrorFreshness,
});
export type AlertsView = z.infer<typeof AlertsView>;

/** `?alert=`: one alert only (a message's acknowledgement link opens it), however many are open. */
export const AlertsQuery = z.object({
  alert: z
    .string()
    .regex(/^[0-9]{1,18}$/, "not a valid alert id.")
    .optional(),
});

export const AlertCount = z.object({ open: z.number(), unacknowledged: z.number() });
export type AlertCount = z.infer<typeof AlertCount>;

export const AcknowledgeRequest = z.object({ comment: typedText({ max: 500, multiline: true }).default("") });
