import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { liveParams } from "@/lib/server/live/params";
import { nightReport } from "@/lib/server/reconciliation/night";

/** One night's reconciliation (`day_id`, default the latest ended night). */
export const GET = route("reconciliation.view", async ({ request, dashboard }) => {
  const { dayId } = liveParams(request);
  return NextResponse.json(await nightReport(dashboard.db, { dayId }));
});
