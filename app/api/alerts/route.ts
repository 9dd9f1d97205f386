import { alertsView } from "@/lib/server/alerts/views";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.alerts.list, ({ user, query, dashboard }) =>
  alertsView(dashboard.db, user.role, { only: query.alert, now: dashboard.clock() }),
);
