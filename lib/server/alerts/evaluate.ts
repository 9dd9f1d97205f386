import "server-only";
import type { Db, Queryable } from "@/lib/db/db";
import type { LiveDay as EventDay } from "@/lib/shared/api/sales";
import { dayOf } from "@/lib/shared/format/time";
import type { DashboardConfig } from "../config";
import { pushBus } from "../push";
import * as store from "../store/attention";
import { eventDays } from "../store/event-settings";
import { lateByDevice } from "../store/night-records";
import { readResourceStates, readSyncWorker } from "../store/sync-state";
import {
  type AttentionSettings,
  BACK_WINDOW_MS,
  type DeviceActivity,
  RHYTHM_RECORDS,
  RHYTHM_WINDOW_MS,
  terminalState,
} from "../terminals";
import {
  type AttentionFacts,
  alertChanges,
  alertConditions,
  NEGATIVE_WINDOW_MS,
  REFUND_WINDOW_MS,
  REVIEW_WAITING_MS,
  type RefundFacts,
} from "./alert-rules";

/**
 * After each sync cycle: every terminal's state, then the alerts, from the device tables the
 * mirror's triggers keep (a day's devices and the last hours' minutes: no scan of the mirror),
 * written in one transaction so a screen sees the states and alerts of one moment.
 */

/** Alerts the gates' step raises and resolves itself (lib/server/gates): not these rules' to resolve. */
const GATE_ALERT_KINDS = new Set<string>([
  "zone_capacity",
  "impossible_walk",
  "double_checkin",
  "double_swipe",
  "offline_double_spend",
  "denied_burst",
]);

const TAIL_RESOURCES = ["sales", "topups", "scans", "checksum"];

const at = (v: string | null) => (v === null ? null : new Date(v));

/** Each device's activity now, and the refunds of the last 15 minutes per device and overall. */
async function deviceFacts(q: Queryable, now: Date, day: EventDay | null, earlierDays: EventDay[]) {
  const t = now.getTime();
  const [days, recent, window, late] = await Promise.all([
    store.deviceDays(
      q,
      day?.id ?? null,
      earlierDays.map((d) => d.id),
    ),
    store.deviceNewestRecords(q, new Date(t - RHYTHM_WINDOW_MS), now, RHYTHM_RECORDS),
    store.deviceMinutesSince(q, new Date(t - REFUND_WINDOW_MS), now),
    store.lateArrivalsSince(q, new Date(t - BACK_WINDOW_MS)),
  ]);
  const activity = days.map(
    (d): DeviceActivity => ({
      deviceId: d.device_id,
      today: d.today,
      lastOccurredAt: at(d.last_occurred_at),
      lastCreatedAt: at(d.last_created_at),
      recentRecords: recent.get(d.device_id)?.records ?? 0,
      recentFirstAt: at(recent.get(d.device_id)?.first ?? null),
      lateArrivals: late
        .filter((l) => l.device_id === d.device_id)
        .map((l) => ({ day_id: l.day_id, records: l.records, money: l.money })),
    }),
  );
  const dayStart = day ? Date.parse(day.starts_at) : t;
  const beforeMs = Math.max(0, t - REFUND_WINDOW_MS - dayStart);
  const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0);
  const earlierMs = sum(earlierDays.map((d) => Date.parse(d.ends_at) - Date.parse(d.starts_at)));
  const refundOf = (subject: string, today: number, inWindow: number, earlier: number): RefundFacts => ({
    subject,
    window: inWindow,
    before: Math.max(0, today - inWindow),
    beforeMs,
    earlier,
    earlierMs,
  });
  const refunds = days
    .filter((d) => d.today)
    .map((d) =>
      refundOf(d.device_id, d.today!.refunds, window.get(d.device_id)?.refunds ?? 0, d.earlierRefunds),
    );
  refunds.push(
    refundOf(
      "*",
      sum(days.map((d) => d.today?.refunds ?? 0)),
      sum([...window.values()].map((w) => w.refunds)),
      sum(days.map((d) => d.earlierRefunds)),
    ),
  );
  const arriving = [...window.values()].some((w) => w.records > 0);
  return { activity, refunds, arriving };
}

/** The new state rows: a state that holds keeps its `since`. */
function stateRows(
  activity: DeviceActivity[],
  previous: Map<string, store.TerminalStateRow>,
  now: Date,
  dayStart: Date | null,
  settings: AttentionSettings,
): store.TerminalStateRow[] {
  return activity.map((a) => {
    const v = terminalState(a, now, dayStart, settings);
    const before = previous.get(a.deviceId);
    return {
      device_id: a.deviceId,
      state: v.state,
      since: before && before.state === v.state ? before.since : now.toISOString(),
      last_occurred_at: a.lastOccurredAt?.toISOString() ?? null,
      last_created_at: a.lastCreatedAt?.toISOString() ?? null,
      figures: {
        normal_gap_s: v.normalGapMs === null ? null : Math.round(v.normalGapMs / 1000),
        quiet_after_s: v.quietAfterMs === null ? null : Math.round(v.quietAfterMs / 1000),
        burst: v.burst,
      },
      computed_at: now.toISOString(),
    };
  });
}

async function nightFacts(q: Queryable, now: Date) {
  const signed = await store.signedNightsNow(q);
  const signedNights = await Promise.all(
    signed.map(async (n) => {
      const moved = Object.keys(n.signed).some(
        (k) => n.signed[k as keyof typeof n.signed] !== n.now[k as keyof typeof n.now],
      );
      const lateDevices = moved ? (await lateByDevice(q, n.day_id, n.signed_at)).length : 0;
      return { ...n, lateDevices };
    }),
  );
  return { signedNights, mismatchedNights: await store.mismatchedEndedNights(q, now) };
}

async function syncFacts(q: Queryable): Promise<AttentionFacts["sync"]> {
  const [worker, states] = await Promise.all([readSyncWorker(q), readResourceStates(q)]);
  return {
    intervalMs: worker?.worker.intervalMs ?? 30_000,
    heartbeatAt: worker?.worker.heartbeatAt ?? null,
    pausedUntil: worker?.worker.pausedUntil ?? null,
    resources: TAIL_RESOURCES.map((resource) => {
      const s = states.get(resource);
      return {
        resource,
        lastSuccessAt: s?.lastSuccessAt ?? null,
        failing: s !== undefined && s.lastAttemptAt !== null && s.lastAttemptAt !== s.lastSuccessAt,
      };
    }),
  };
}

export interface AttentionOutcome {
  terminals: number;
  opened: number;
  resolved: number;
  open: number;
}

/** Computes and stores the terminal states and the alerts as of `now`. */
export async function evaluateAttention(
  db: Db,
  settings: AttentionSettings,
  now: Date,
): Promise<AttentionOutcome> {
  const outcome = await db.transaction(async (tx) => {
    const days = await eventDays(tx);
    const day = dayOf(days, now);
    const inDay = day !== null && Date.parse(day.starts_at) <= now.getTime() && now < new Date(day.ends_at);
    const [devices, previous, nights, sync, review, negative, open] = await Promise.all([
      deviceFacts(
        tx,
        now,
        day,
        days.filter((d) => day && Date.parse(d.starts_at) < Date.parse(day.starts_at)),
      ),
      store.terminalStates(tx),
      nightFacts(tx, now),
      syncFacts(tx),
      store.reviewWaitingSince(tx, new Date(now.getTime() - REVIEW_WAITING_MS)),
      store.negativeBalancesSince(tx, new Date(now.getTime() - NEGATIVE_WINDOW_MS)),
      store.openAlerts(tx).then((a) => a.filter((x) => !GATE_ALERT_KINDS.has(x.kind))),
    ]);
    const rows = stateRows(
      devices.activity,
      new Map(previous.map((p) => [p.device_id, p])),
      now,
      day ? new Date(day.starts_at) : null,
      settings,
    );
    await store.saveTerminalStates(tx, rows);
    const facts: AttentionFacts = {
      now,
      trading: inDay || devices.arriving,
      terminals: rows.map((r) => ({ ...r, burst: r.figures.burst })),
      ...nights,
      sync,
      refunds: devices.refunds,
      negative,
      review,
    };
    const changes = alertChanges(open, alertConditions(facts, settings));
    for (const c of changes.opened) await store.insertAlert(tx, c, now);
    for (const { id, condition } of changes.continued) await store.touchAlert(tx, id, condition, now);
    for (const id of changes.resolved) await store.resolveAlert(tx, id, now);
    return {
      terminals: rows.length,
      opened: changes.opened.length,
      resolved: changes.resolved.length,
      open: changes.opened.length + changes.continued.length,
    };
  });
  if (outcome.opened + outcome.resolved > 0) pushBus(db).emit("alerts");
  return outcome;
}

export function attentionSettingsOf(
  config: Pick<DashboardConfig, "ATTENTION_QUIET_S" | "ATTENTION_LATE_S" | "ATTENTION_ALERT_S">,
): AttentionSettings {
  return {
    quietMs: config.ATTENTION_QUIET_S * 1000,
    lateMs: config.ATTENTION_LATE_S * 1000,
    alertMs: config.ATTENTION_ALERT_S * 1000,
  };
}

/**
 * The sync worker's after-cycle work: the store learns the late threshold (rebuilding the device
 * tables when it changed), then each cycle evaluates the states and alerts.
 */
export async function attentionAfterCycle(
  db: Db,
  config: Parameters<typeof attentionSettingsOf>[0],
): Promise<(at: Date) => Promise<AttentionOutcome>> {
  const settings = attentionSettingsOf(config);
  await store.setAttentionThresholds(db, { late: config.ATTENTION_LATE_S, quiet: config.ATTENTION_QUIET_S });
  return (at) => evaluateAttention(db, settings, at);
}
