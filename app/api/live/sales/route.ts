import { handle } from "@/lib/server/http/handle";
import { salesDayReport } from "@/lib/server/sales/reports";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.live.sales, ({ query, dashboard }) =>
  salesDayReport(dashboard.db, { dayId: query.day_id ?? null, cursor: query.cursor, now: dashboard.clock() }),
);
