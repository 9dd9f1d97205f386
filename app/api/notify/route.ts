import { handle } from "@/lib/server/http/handle";
import { notifySettings } from "@/lib/server/notify";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.notify.settings, ({ dashboard }) =>
  notifySettings(dashboard.db, dashboard.config),
);
