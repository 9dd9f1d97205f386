import { connectionReport } from "@/lib/server/connection/connection";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.connection.report, ({ user, dashboard }) =>
  connectionReport(dashboard, user),
);
