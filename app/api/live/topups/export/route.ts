import { route } from "@/lib/server/guard";
import { topupsCsv } from "@/lib/server/live/csv";
import { liveParams } from "@/lib/server/live/params";
import { liveContext, pickDay } from "@/lib/server/live/queries";

/** Every top-up and withdrawal of one event day as CSV (`direction` filters). */
export const GET = route("topups.view", async ({ request, dashboard }) => {
  const { dayId, direction } = liveParams(request);
  const ctx = await liveContext(dashboard.db);
  const day = pickDay(ctx, dayId);
  const currency = ctx.event?.currency ?? "EUR";
  const tz = ctx.event?.time_zone ?? "UTC";
  return new Response(day ? topupsCsv(dashboard.db, day.id, direction, currency, tz) : "id\r\n", {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="topups-${day?.date ?? "none"}${direction ? `-${direction}` : ""}.csv"`,
      "cache-control": "no-store",
    },
  });
});
