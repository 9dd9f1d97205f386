import { wristbandSales } from "@/lib/server/gate/wristbands";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.gate.wristbandSales, ({ params, query, user, dashboard }) =>
  wristbandSales(dashboard, user, params.code, query.starting_after),
);
