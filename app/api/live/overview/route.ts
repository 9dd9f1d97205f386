import { handle } from "@/lib/server/http/handle";
import { overviewReport } from "@/lib/server/sales/reports";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.live.overview, ({ dashboard }) =>
  overviewReport(dashboard.db, dashboard.clock()),
);
