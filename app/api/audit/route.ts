import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { listAudit } from "@/lib/server/staff/audit";

/** The audit log of every write, newest first (managers). */
export const GET = route("audit.view", async ({ request, dashboard }) => {
  const before = new URL(request.url).searchParams.get("before");
  return NextResponse.json(
    await listAudit(dashboard.db, { limit: 50, before: before && /^\d+$/.test(before) ? before : null }),
  );
});
