import { handle } from "@/lib/server/http/handle";
import { addRoute } from "@/lib/server/notify";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.notify.addRoute, ({ body, user, dashboard }) =>
  addRoute(dashboard.db, user, body, dashboard.clock()),
);
