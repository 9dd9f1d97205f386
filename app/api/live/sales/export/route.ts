import { readQuery } from "@/lib/server/http/input";
import { requestLocale } from "@/lib/server/http/locale";
import { csvResponse } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { dayExport } from "@/lib/server/sales/sales-csv";
import { DayQuery } from "@/lib/shared/api/params";

/** Every sale of one event day as CSV (all statuses; the screen's totals count completed ones). */
export const GET = route("sales.view", async ({ request, dashboard, user }) => {
  const { day_id } = readQuery(request, DayQuery);
  const file = await dayExport(dashboard.db, { kind: "sales" }, day_id ?? null, requestLocale(request, user));
  return csvResponse(file.body, file.fileName);
});
