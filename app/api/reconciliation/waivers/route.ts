import { handle } from "@/lib/server/http/handle";
import { waiveTerminal } from "@/lib/server/night/completeness";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.night.waive, ({ body, user, dashboard }) =>
  waiveTerminal(dashboard.db, user, body, dashboard.clock()),
);
