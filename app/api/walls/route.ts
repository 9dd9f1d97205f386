import { answered, handle } from "@/lib/server/http/handle";
import { issueWall, wallsView } from "@/lib/server/users/walls";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.wall.list, ({ dashboard }) => wallsView(dashboard.db));

export const POST = handle(endpoints.wall.issue, async ({ dashboard, user, body }) =>
  answered(await issueWall(dashboard.db, user, body.name, dashboard.clock()), { status: 201 }),
);
