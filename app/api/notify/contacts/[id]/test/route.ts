import { handle } from "@/lib/server/http/handle";
import { sendTest } from "@/lib/server/notify";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.notify.testContact, ({ params, user, dashboard }) =>
  sendTest(dashboard.db, dashboard.config, user, params.id, dashboard.clock()),
);
