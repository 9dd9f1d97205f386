import { handle } from "@/lib/server/http/handle";
import { revokeWall } from "@/lib/server/users/walls";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.wall.revoke, ({ dashboard, user, params }) =>
  revokeWall(dashboard.db, user, params.id, dashboard.clock()),
);
