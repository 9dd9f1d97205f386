import { connectionReport } from "@/lib/server/connection/connection";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { ConnectionReport } from "@/lib/shared/api/connection";

/** The connection screen: a live GET /ping (the key's scopes, restrictions, quota) and the sync status. */
export const GET = route("connection.view", async ({ user, dashboard }) =>
  answer(ConnectionReport, await connectionReport(dashboard, user)),
);
