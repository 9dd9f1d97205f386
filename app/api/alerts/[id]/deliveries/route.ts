import { handle } from "@/lib/server/http/handle";
import { deliveryLog } from "@/lib/server/notify";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.notify.deliveries, ({ params, user, dashboard }) =>
  deliveryLog(dashboard.db, user.role, params.id),
);
