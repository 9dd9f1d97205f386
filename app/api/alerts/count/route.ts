import { alertCount } from "@/lib/server/alerts/views";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { AlertCount } from "@/lib/shared/api/attention";

/** The header's bell: open alerts of the kinds this role sees, and how many nobody acknowledged. */
export const GET = route("alerts.view", async ({ user, dashboard }) =>
  answer(AlertCount, await alertCount(dashboard.db, user.role)),
);
