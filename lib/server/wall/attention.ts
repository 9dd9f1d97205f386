import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { AlertSeverity, TerminalState } from "@/lib/shared/api/attention";
import type { WallAttention } from "@/lib/shared/api/wall";
import { alertKindsFor } from "@/lib/shared/permissions";
import * as store from "../store/attention";
import { eventFormat } from "../store/event-settings";

/** What needs attention, as a wall shows it: terminals quiet or offline, and the open alerts a wall sees. */

const NEEDS_ATTENTION: readonly TerminalState[] = ["quiet", "late"];
const SEVERITY_RANK: Record<AlertSeverity, number> = { critical: 0, warning: 1, info: 2 };
const ALERTS_READ = 50;

export async function wallAttention(db: Queryable): Promise<WallAttention> {
  const [states, alerts, format] = await Promise.all([
    store.terminalStates(db),
    store.alertsOfKinds(db, alertKindsFor("wall"), ALERTS_READ),
    eventFormat(db),
  ]);
  const open = alerts.filter((a) => a.state === "open");
  return {
    terminals: states
      .filter((s) => NEEDS_ATTENTION.includes(s.state))
      .sort((a, b) => a.since.localeCompare(b.since))
      .map((s) => ({ device_id: s.device_id, state: s.state, since: s.since })),
    terminals_total: states.length,
    alerts: open
      .sort(
        (a, b) =>
          SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.last_seen.localeCompare(a.last_seen),
      )
      .map((a) => ({
        id: a.id,
        kind: a.kind,
        subject: a.subject,
        severity: a.severity,
        first_seen: a.first_seen,
      })),
    open_alerts: open.length,
    time_zone: format.timeZone,
  };
}
