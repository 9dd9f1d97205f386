import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { liveParams } from "@/lib/server/live/params";
import { salesDayReport } from "@/lib/server/live/queries";

/** Sales of one event day (`day_id`, default the current day); `cursor` pages the latest sales. */
export const GET = route("sales.view", async ({ request, dashboard }) => {
  const { dayId, cursor } = liveParams(request);
  return NextResponse.json(await salesDayReport(dashboard.db, { dayId, cursor }));
});
