import { handle } from "@/lib/server/http/handle";
import { validateImport } from "@/lib/server/imports/import";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.imports.validate, ({ body, dashboard }) =>
  validateImport(dashboard.db, body),
);
