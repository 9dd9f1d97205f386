import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { continueImport, requireImportJob } from "@/lib/server/imports/import";
import { ImportJobAnswer } from "@/lib/shared/api/staff";

export const GET = route<{ id: string }>("tickets.import", async ({ dashboard, params }) =>
  answer(ImportJobAnswer, { job: await requireImportJob(dashboard.db, params.id) }),
);

/** Sends the next chunk not yet sent (with its stored Idempotency-Key) and answers the job's progress. */
export const POST = route<{ id: string }>("tickets.import", async ({ user, dashboard, params }) =>
  answer(ImportJobAnswer, { job: await continueImport(dashboard, user, params.id) }),
);
