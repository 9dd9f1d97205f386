import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { importCatalog } from "@/lib/server/staff/catalog";
import { readBody } from "@/lib/server/staff/common";
import { ImportBody, validateTicketCsv } from "@/lib/server/staff/csv";

/** Validates every row of a ticket CSV; nothing is stored nor sent. */
export const POST = route("tickets.import", async ({ request, dashboard }) => {
  const body = await readBody(request, ImportBody);
  const result = validateTicketCsv(body.csv, await importCatalog(dashboard.db));
  return NextResponse.json(
    result.ok
      ? { ok: true, rows: result.tickets.length }
      : { ok: false, rows: result.rows, errors: result.errors },
  );
});
