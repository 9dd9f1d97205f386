import { readQuery } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { nightReport, nightTolerance } from "@/lib/server/night/night";
import { DayQuery } from "@/lib/shared/api/params";
import { NightReport } from "@/lib/shared/api/reconciliation";

/** One night's reconciliation (`day_id`, default the latest ended night). */
export const GET = route("reconciliation.view", async ({ request, dashboard }) => {
  const { day_id } = readQuery(request, DayQuery);
  return answer(
    NightReport,
    await nightReport(dashboard.db, { dayId: day_id ?? null, tolerance: nightTolerance(dashboard.config) }),
  );
});
