import { handle } from "@/lib/server/http/handle";
import { rightNowReport } from "@/lib/server/sales/right-now";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.live.rightNow, ({ dashboard, user }) =>
  rightNowReport(dashboard.db, user.role, dashboard.clock()),
);
