import { route } from "@/lib/server/guard";
import { salesCsv } from "@/lib/server/live/csv";
import { liveParams } from "@/lib/server/live/params";
import { liveContext, pickDay } from "@/lib/server/live/queries";

/** Every sale of one event day as CSV (all statuses; the screen's totals count completed ones). */
export const GET = route("sales.view", async ({ request, dashboard }) => {
  const { dayId } = liveParams(request);
  const ctx = await liveContext(dashboard.db);
  const day = pickDay(ctx, dayId);
  const currency = ctx.event?.currency ?? "EUR";
  const tz = ctx.event?.time_zone ?? "UTC";
  return new Response(day ? salesCsv(dashboard.db, day.id, currency, tz) : "id\r\n", {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="sales-${day?.date ?? "none"}.csv"`,
      "cache-control": "no-store",
    },
  });
});
