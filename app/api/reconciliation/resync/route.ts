import { NextResponse } from "next/server";
import { z } from "zod";
import { route } from "@/lib/server/guard";
import { requestResync } from "@/lib/server/reconciliation/night";
import { readBody } from "@/lib/server/staff/common";

const Body = z.object({ day_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "day_id is not a valid id.") });

/** "Re-sync this night": the sync worker re-walks the day on its next cycle. */
export const POST = route("reconciliation.signoff", async ({ request, user, dashboard }) => {
  const { day_id } = await readBody(request, Body);
  return NextResponse.json(await requestResync(dashboard.db, day_id, user.username), { status: 202 });
});
