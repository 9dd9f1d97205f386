import "server-only";
import type { GateInfo } from "@/lib/shared/api/gate";
import type { Dashboard } from "../dashboard";
import { gateCatalog } from "../store/event-settings";

/** What a screen needs for the gate's verdict: the event's days, zone and zones, and the clock. */
export async function gateInfo(dashboard: Pick<Dashboard, "db" | "clock">): Promise<GateInfo> {
  return { now: dashboard.clock().toISOString(), ...(await gateCatalog(dashboard.db)) };
}
