import { NextResponse } from "next/server";
import { HttpError, route } from "@/lib/server/guard";
import { codeParam } from "@/lib/server/staff/common";
import { isApiError, toHttpError } from "@/lib/server/staff/errors";
import { getUpstreamClient } from "@/lib/server/upstream";

/** The header's search box: a ticket code, or a wristband's NFC / UHF code, looked up live. */
export const GET = route("tickets.view", async ({ request, dashboard }) => {
  const code = codeParam(new URL(request.url).searchParams.get("code"));
  const client = getUpstreamClient(dashboard.config);
  const missing = (err: unknown) => isApiError(err) && err.status === 404;
  try {
    const ticket = await client.ticketByCode(code);
    return NextResponse.json({ kind: "ticket", code: ticket.code });
  } catch (err) {
    if (!missing(err)) throw toHttpError(err);
  }
  try {
    const wristband = await client.wristbandByCode(code);
    return NextResponse.json({ kind: "wristband", code: wristband.nfc });
  } catch (err) {
    if (!missing(err)) throw toHttpError(err);
  }
  throw new HttpError(404, "nothing_found", `Nothing with the code ${code}: no ticket, no wristband.`);
});
