import { connectWall } from "@/lib/server/auth/wall-session";
import { answered, handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

/** Sets the wall's session cookie. */
export const POST = handle(endpoints.wall.connect, async ({ dashboard, body }) => {
  const result = await connectWall(dashboard.db, dashboard.config, body.token, dashboard.clock());
  return answered(result.answer, { cookies: result.cookies });
});
