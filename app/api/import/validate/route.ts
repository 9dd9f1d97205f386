import { readBody } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { validateImport } from "@/lib/server/imports/import";
import { IMPORT_BODY_LIMIT, ImportBody } from "@/lib/server/imports/import-rows";
import { ImportValidation } from "@/lib/shared/api/staff";

/** Validates every row of a ticket CSV; nothing is stored nor sent. */
export const POST = route("tickets.import", async ({ request, dashboard }) =>
  answer(
    ImportValidation,
    await validateImport(dashboard.db, await readBody(request, ImportBody, IMPORT_BODY_LIMIT)),
  ),
);
