import { wallHeartbeat } from "@/lib/server/auth/wall-session";
import { answered, handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.wall.session, async ({ dashboard, session }) => {
  const result = await wallHeartbeat(dashboard.db, dashboard.config, session, dashboard.clock());
  return answered(result.answer, { cookies: result.cookies, headers: { "cache-control": "no-store" } });
});
