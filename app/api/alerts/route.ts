import { alertsView } from "@/lib/server/alerts/views";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { AlertsView } from "@/lib/shared/api/attention";

/** The alerts of the kinds this role sees: open ones first, then the history. */
export const GET = route("alerts.view", async ({ user, dashboard }) =>
  answer(AlertsView, await alertsView(dashboard.db, user.role)),
);
