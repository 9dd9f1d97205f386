import { handle } from "@/lib/server/http/handle";
import { removeRoute } from "@/lib/server/notify";
import { endpoints } from "@/lib/shared/api/endpoints";

export const DELETE = handle(endpoints.notify.removeRoute, ({ params, user, dashboard }) =>
  removeRoute(dashboard.db, user, params.id),
);
