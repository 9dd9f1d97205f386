import { NextResponse } from "next/server";
import { HttpError, route } from "@/lib/server/guard";
import { codeParam } from "@/lib/server/staff/common";
import { upstream } from "@/lib/server/staff/errors";
import { getUpstreamClient } from "@/lib/server/upstream";

/** One page (25) of a wristband's sales, live, with items and taxes. */
export const GET = route<{ code: string }>("wristbands.view", async ({ request, dashboard, params }) => {
  const code = codeParam(params.code);
  const after = new URL(request.url).searchParams.get("starting_after") || undefined;
  if (after !== undefined && !/^[0-9a-f]{24}$/.test(after))
    throw new HttpError(400, "invalid_request", "starting_after is not a sale id.");
  const page = await upstream(() =>
    getUpstreamClient(dashboard.config).wristbandTransactions(code, { limit: 25, starting_after: after }),
  );
  return NextResponse.json(page);
});
