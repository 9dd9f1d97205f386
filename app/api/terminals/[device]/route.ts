import { handle } from "@/lib/server/http/handle";
import { changeStation, terminalDetail } from "@/lib/server/terminals/views";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.terminals.detail, ({ params, dashboard }) =>
  terminalDetail(dashboard.db, params.device, dashboard.clock()),
);

export const PUT = handle(endpoints.terminals.station, ({ params, body, user, dashboard }) =>
  changeStation(dashboard.db, user, params.device, body.station, dashboard.clock()),
);
