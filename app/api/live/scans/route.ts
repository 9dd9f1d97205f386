import { readQuery } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { scansDayReport } from "@/lib/server/sales/reports";
import { ScansDayReport } from "@/lib/shared/api/live";
import { DayQuery } from "@/lib/shared/api/params";

/** Door scans of one event day: per zone and hour, allowed against denied, the latest denials. */
export const GET = route("scans.view", async ({ request, dashboard }) => {
  const { day_id } = readQuery(request, DayQuery);
  return answer(ScansDayReport, await scansDayReport(dashboard.db, { dayId: day_id ?? null }));
});
