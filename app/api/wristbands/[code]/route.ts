import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { codeParam, eventCurrency } from "@/lib/server/staff/common";
import { upstream } from "@/lib/server/staff/errors";
import { getUpstreamClient } from "@/lib/server/upstream";

/** One wristband, live, with its top-ups (from the mirror: the API has no per-wristband top-up list). */
export const GET = route<{ code: string }>("wristbands.view", async ({ dashboard, params }) => {
  const code = codeParam(params.code);
  const wristband = await upstream(() => getUpstreamClient(dashboard.config).wristbandByCode(code));
  const db = dashboard.db;
  const [event] = await db.query<{ time_zone: string }>("select time_zone from m_event limit 1");
  const days = await db.query<{ id: string; name: string }>("select id, name from m_days order by starts_at");
  const topups = await db.query<Record<string, unknown>>(
    `select id, direction, amount, previous_balance, new_balance, payment_method, nature, status,
            wristband_id, day_id, device_id, occurred_at, created_at
       from m_topups where wristband_id = $1 order by occurred_at desc limit 200`,
    [wristband.id],
  );
  return NextResponse.json({
    wristband,
    currency: await eventCurrency(db),
    timeZone: event?.time_zone ?? "UTC",
    days,
    topups: topups.map((t) => ({
      object: "topup",
      ...t,
      occurred_at: new Date(t.occurred_at as string).toISOString(),
      created_at: new Date(t.created_at as string).toISOString(),
    })),
  });
});
