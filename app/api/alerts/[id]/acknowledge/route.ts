import { acknowledge } from "@/lib/server/alerts/views";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.alerts.acknowledge, ({ params, body, user, dashboard }) =>
  acknowledge(dashboard.db, user, params.id, body.comment, dashboard.clock()),
);
