import { wristbandView } from "@/lib/server/gate/wristbands";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.gate.wristband, ({ params, user, dashboard }) =>
  wristbandView(dashboard, user, params.code),
);
