import { NextResponse } from "next/server";
import { z } from "zod";
import { ticketStatuses } from "@/lib/contract";
import { HttpError, route } from "@/lib/server/guard";
import { upstream } from "@/lib/server/staff/errors";
import { getUpstreamClient } from "@/lib/server/upstream";

const Query = z.object({
  status: z.enum(ticketStatuses).optional(),
  updated_since: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  starting_after: z
    .string()
    .regex(/^[0-9a-f]{24}$/)
    .optional(),
});

/** One page of tickets, live: a status filter and "changed since". */
export const GET = route("tickets.view", async ({ request, dashboard }) => {
  const raw = Object.fromEntries([...new URL(request.url).searchParams].filter(([, v]) => v !== ""));
  const parsed = Query.safeParse(raw);
  if (!parsed.success)
    throw new HttpError(400, "invalid_request", `Bad filter: ${parsed.error.issues[0]!.path.join(".")}.`);
  const client = getUpstreamClient(dashboard.config);
  const page = await upstream(() => client.tickets({ ...parsed.data, limit: 50 }));
  return NextResponse.json(page);
});
