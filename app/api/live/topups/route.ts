import { readQuery } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { topupsDayReport } from "@/lib/server/sales/reports";
import { TopupsDayReport } from "@/lib/shared/api/live";
import { TopupsQuery } from "@/lib/shared/api/params";

/** Top-up flows of one event day; `direction` filters the list, `cursor` pages it. */
export const GET = route("topups.view", async ({ request, dashboard }) => {
  const query = readQuery(request, TopupsQuery);
  return answer(
    TopupsDayReport,
    await topupsDayReport(dashboard.db, {
      dayId: query.day_id ?? null,
      cursor: query.cursor,
      direction: query.direction ?? null,
    }),
  );
});
