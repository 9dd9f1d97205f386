import { auditPage } from "@/lib/server/audit/audit";
import { readQuery } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { AuditQuery } from "@/lib/shared/api/params";
import { AuditPage } from "@/lib/shared/api/staff";

/** The audit log of every write, newest first (managers). */
export const GET = route("audit.view", async ({ request, dashboard }) => {
  const { before } = readQuery(request, AuditQuery);
  return answer(AuditPage, await auditPage(dashboard, before ?? null));
});
