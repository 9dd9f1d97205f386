import { NextResponse } from "next/server";
import { HttpError, route } from "@/lib/server/guard";
import { getImportJob, sendNextChunk } from "@/lib/server/staff/import";
import { getUpstreamClient } from "@/lib/server/upstream";

function jobId(id: string) {
  if (!/^imp_[0-9a-f]{16}$/.test(id))
    throw new HttpError(404, "import_not_found", "There is no such import.");
  return id;
}

export const GET = route<{ id: string }>("tickets.import", async ({ dashboard, params }) => {
  const job = await getImportJob(dashboard.db, jobId(params.id));
  if (!job) throw new HttpError(404, "import_not_found", "There is no such import.");
  return NextResponse.json({ job });
});

/** Sends the next chunk not yet sent (with its stored Idempotency-Key) and answers the job's progress. */
export const POST = route<{ id: string }>("tickets.import", async ({ user, dashboard, params }) => {
  const job = await sendNextChunk(dashboard.db, getUpstreamClient(dashboard.config), jobId(params.id), user);
  if (!job) throw new HttpError(404, "import_not_found", "There is no such import.");
  return NextResponse.json({ job });
});
