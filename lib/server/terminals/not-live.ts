import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { TerminalState } from "@/lib/shared/api/attention";
import * as store from "../store/attention";

/**
 * Terminals not live, from the states the terminal rules stored after the last cycle: those that
 * need a look (quiet, late: offline and syncing late, back from being late) first by how long, and
 * how many are idle (no record today: not opened yet or closed, counted apart).
 */
const NEEDS_A_LOOK: TerminalState[] = ["late", "quiet", "back"];

export async function terminalsNotLive(db: Queryable) {
  const states = await store.terminalStates(db);
  const items = states
    .filter((s) => NEEDS_A_LOOK.includes(s.state))
    .sort(
      (a, b) =>
        NEEDS_A_LOOK.indexOf(a.state) - NEEDS_A_LOOK.indexOf(b.state) ||
        a.since.localeCompare(b.since) ||
        a.device_id.localeCompare(b.device_id),
    )
    .map((s) => ({ device_id: s.device_id, state: s.state, since: s.since }));
  return { not_live: items.length, idle: states.filter((s) => s.state === "idle").length, items };
}
