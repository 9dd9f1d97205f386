import { handle } from "@/lib/server/http/handle";
import { scansDayReport } from "@/lib/server/sales/reports";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.live.scans, ({ query, dashboard }) =>
  scansDayReport(dashboard.db, { dayId: query.day_id ?? null, now: dashboard.clock() }),
);
