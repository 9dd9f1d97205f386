import { handle } from "@/lib/server/http/handle";
import { setFloat } from "@/lib/server/night/counting";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.night.float, ({ body, user, dashboard }) =>
  setFloat(dashboard.db, user, body, dashboard.clock()),
);
