import { handle } from "@/lib/server/http/handle";
import { topupsDayReport } from "@/lib/server/sales/reports";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.live.topups, ({ query, dashboard }) =>
  topupsDayReport(dashboard.db, {
    dayId: query.day_id ?? null,
    cursor: query.cursor,
    direction: query.direction ?? null,
    now: dashboard.clock(),
  }),
);
