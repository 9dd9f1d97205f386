import { handle } from "@/lib/server/http/handle";
import { nightReport, nightTolerance } from "@/lib/server/night/night";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.night.report, ({ query, dashboard }) =>
  nightReport(dashboard.db, {
    dayId: query.day_id ?? null,
    tolerance: nightTolerance(dashboard.config),
    now: dashboard.clock(),
  }),
);
