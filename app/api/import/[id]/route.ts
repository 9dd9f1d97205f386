import { handle } from "@/lib/server/http/handle";
import { continueImport, requireImportJob } from "@/lib/server/imports/import";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.imports.job, async ({ params, dashboard }) => ({
  job: await requireImportJob(dashboard.db, params.id),
}));

export const POST = handle(endpoints.imports.resume, async ({ params, user, dashboard }) => ({
  job: await continueImport(dashboard, user, params.id),
}));
