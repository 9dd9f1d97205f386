import { NextResponse } from "next/server";
import { HttpError, route } from "@/lib/server/guard";
import { recordAudit } from "@/lib/server/staff/audit";
import { importCatalog } from "@/lib/server/staff/catalog";
import { readBody } from "@/lib/server/staff/common";
import { ImportBody, validateTicketCsv } from "@/lib/server/staff/csv";
import { createImportJob, getImportJob, listImportJobs } from "@/lib/server/staff/import";

/** The latest imports (unfinished ones can be resumed). */
export const GET = route("tickets.import", async ({ dashboard }) => {
  return NextResponse.json({ data: await listImportJobs(dashboard.db) });
});

/** Creates an import of a fully valid CSV: its chunks and their Idempotency-Keys are stored first. */
export const POST = route("tickets.import", async ({ request, user, dashboard }) => {
  const body = await readBody(request, ImportBody);
  const result = validateTicketCsv(body.csv, await importCatalog(dashboard.db));
  if (!result.ok)
    throw new HttpError(
      422,
      "invalid_rows",
      `${result.errors.length} row error(s): fix the file, nothing was sent.`,
    );
  const id = await createImportJob(dashboard.db, {
    username: user.username,
    fileName: body.file_name,
    tickets: result.tickets,
  });
  await recordAudit(dashboard.db, {
    user,
    action: "tickets.import_created",
    target: id,
    outcome: "ok",
    detail: { file_name: body.file_name, rows: result.tickets.length },
  });
  return NextResponse.json({ job: await getImportJob(dashboard.db, id) }, { status: 201 });
});
