import { readQuery } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { salesDayReport } from "@/lib/server/sales/reports";
import { SalesDayReport } from "@/lib/shared/api/live";
import { DayQuery } from "@/lib/shared/api/params";

/** Sales of one event day (`day_id`, default the current day); `cursor` pages the latest sales. */
export const GET = route("sales.view", async ({ request, dashboard }) => {
  const query = readQuery(request, DayQuery);
  return answer(
    SalesDayReport,
    await salesDayReport(dashboard.db, { dayId: query.day_id ?? null, cursor: query.cursor }),
  );
});
