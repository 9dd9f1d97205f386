import { alertCount } from "@/lib/server/alerts/views";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.alerts.count, ({ user, dashboard }) =>
  alertCount(dashboard.db, user.role),
);
