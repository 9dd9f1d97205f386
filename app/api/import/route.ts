import { handle } from "@/lib/server/http/handle";
import { listImportJobs, startImport } from "@/lib/server/imports/import";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.imports.list, async ({ dashboard }) => ({
  data: await listImportJobs(dashboard.db),
}));

export const POST = handle(endpoints.imports.start, async ({ body, user, dashboard }) => ({
  job: await startImport(dashboard.db, user, body),
}));
