import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { overviewReport } from "@/lib/server/sales/reports";
import { OverviewReport } from "@/lib/shared/api/live";

/** The overview: the current event day's totals, hours, flows and late arrivals, from the aggregates. */
export const GET = route("overview.view", async ({ dashboard }) =>
  answer(OverviewReport, await overviewReport(dashboard.db)),
);
