import "server-only";
import type { SalesPage, WristbandView } from "@/lib/shared/api/staff";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { liveLookup } from "../http/lookup-budget";
import { callUpstream } from "../http/upstream-errors";
import { eventFormat } from "../store/event-settings";
import { wristbandTopups } from "../store/wristband-topups";
import { gateInfo } from "./gate";

/**
 * One wristband, live, with its top-ups from the mirror (the API has no per-wristband top-up list)
 * and what its verdict needs.
 */
export async function wristbandView(
  dashboard: Dashboard,
  user: SessionUser,
  code: string,
): Promise<WristbandView> {
  const wristband = await callUpstream(() =>
    dashboard.upstream.wristbandByCode(code, liveLookup(dashboard, user)),
  );
  const [{ currency, timeZone }, gate, topups] = await Promise.all([
    eventFormat(dashboard.db),
    gateInfo(dashboard),
    wristbandTopups(dashboard.db, wristband.id),
  ]);
  return { wristband, currency, timeZone, gate, topups };
}

/** One page (25) of a wristband's sales, live, with items and taxes. */
export function wristbandSales(
  dashboard: Dashboard,
  user: SessionUser,
  code: string,
  startingAfter?: string,
): Promise<SalesPage> {
  return callUpstream(() =>
    dashboard.upstream.wristbandTransactions(
      code,
      { limit: 25, starting_after: startingAfter },
      liveLookup(dashboard, user),
    ),
  );
}
