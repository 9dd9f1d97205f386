import { readBody } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { listImportJobs, startImport } from "@/lib/server/imports/import";
import { IMPORT_BODY_LIMIT, ImportBody } from "@/lib/server/imports/import-rows";
import { ImportJobAnswer, ImportJobList } from "@/lib/shared/api/staff";

/** The latest imports (unfinished ones can be resumed). */
export const GET = route("tickets.import", async ({ dashboard }) =>
  answer(ImportJobList, { data: await listImportJobs(dashboard.db) }),
);

/** Creates an import of a fully valid CSV: its chunks and their Idempotency-Keys are stored first. */
export const POST = route("tickets.import", async ({ request, user, dashboard }) =>
  answer(
    ImportJobAnswer,
    { job: await startImport(dashboard.db, user, await readBody(request, ImportBody, IMPORT_BODY_LIMIT)) },
    201,
  ),
);
