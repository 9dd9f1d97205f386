import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { codeParam } from "@/lib/server/staff/common";
import { upstream } from "@/lib/server/staff/errors";
import { getUpstreamClient } from "@/lib/server/upstream";

/** One ticket, live. */
export const GET = route<{ code: string }>("tickets.view", async ({ dashboard, params }) => {
  const code = codeParam(params.code);
  const ticket = await upstream(() => getUpstreamClient(dashboard.config).ticketByCode(code));
  const [event] = await dashboard.db.query<{ time_zone: string }>("select time_zone from m_event limit 1");
  return NextResponse.json({ ticket, timeZone: event?.time_zone ?? "UTC" });
});
