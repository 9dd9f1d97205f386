import "server-only";
import type { AuditPage } from "@/lib/shared/api/staff";
import type { Dashboard } from "../dashboard";
import { listAudit } from "../store/audit-log";
import { eventFormat } from "../store/event-settings";

/** The audit log of every write, newest first, 50 a page, with the event's zone for its times. */
export async function auditPage(dashboard: Dashboard, before: string | null): Promise<AuditPage> {
  const page = await listAudit(dashboard.db, { limit: 50, before });
  return { ...page, timeZone: (await eventFormat(dashboard.db)).timeZone };
}
