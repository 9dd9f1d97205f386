import { gateScans } from "@/lib/server/gates/views";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.gates.scans, ({ query, dashboard }) =>
  gateScans(dashboard.db, query, dashboard.clock()),
);
