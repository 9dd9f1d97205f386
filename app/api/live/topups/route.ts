import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { liveParams } from "@/lib/server/live/params";
import { topupsDayReport } from "@/lib/server/live/queries";

/** Top-up flows of one event day; `direction` filters the list, `cursor` pages it. */
export const GET = route("topups.view", async ({ request, dashboard }) => {
  const { dayId, cursor, direction } = liveParams(request);
  return NextResponse.json(await topupsDayReport(dashboard.db, { dayId, cursor, direction }));
});
