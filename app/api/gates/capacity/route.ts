import { setZoneCapacity } from "@/lib/server/gates/views";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const PUT = handle(endpoints.gates.capacity, ({ body, user, dashboard }) =>
  setZoneCapacity(dashboard.db, user, body.zone_id, body.capacity, dashboard.clock()),
);
