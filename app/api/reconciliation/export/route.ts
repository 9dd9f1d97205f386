import { route } from "@/lib/server/guard";
import { liveParams } from "@/lib/server/live/params";
import { nightCsv } from "@/lib/server/reconciliation/csv";
import { nightReport } from "@/lib/server/reconciliation/night";

/** The night's figures as CSV (the same numbers as the screen). */
export const GET = route("reconciliation.view", async ({ request, dashboard }) => {
  const { dayId } = liveParams(request);
  const report = await nightReport(dashboard.db, { dayId });
  return new Response(nightCsv(report), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="night-${report.day?.date ?? "none"}.csv"`,
      "cache-control": "no-store",
    },
  });
});
