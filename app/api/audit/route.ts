import { auditPage } from "@/lib/server/audit/audit";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.audit.log, ({ query, dashboard }) =>
  auditPage(dashboard, query.before ?? null),
);
