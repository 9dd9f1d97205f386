import { handle } from "@/lib/server/http/handle";
import { requestResync } from "@/lib/server/night/night";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.night.resync, ({ body, user, dashboard }) =>
  requestResync(dashboard.db, body.day_id, user.username, dashboard.clock()),
);
