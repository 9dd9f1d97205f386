import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { liveParams } from "@/lib/server/live/params";
import { scansDayReport } from "@/lib/server/live/queries";

/** Door scans of one event day: per zone and hour, allowed against denied, the latest denials. */
export const GET = route("scans.view", async ({ request, dashboard }) => {
  const { dayId } = liveParams(request);
  return NextResponse.json(await scansDayReport(dashboard.db, { dayId }));
});
