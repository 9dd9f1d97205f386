import { readQuery } from "@/lib/server/http/input";
import { requestLocale } from "@/lib/server/http/locale";
import { csvResponse } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { dayExport } from "@/lib/server/sales/sales-csv";
import { TopupsQuery } from "@/lib/shared/api/params";

/** Every top-up and withdrawal of one event day as CSV (`direction` filters). */
export const GET = route("topups.view", async ({ request, dashboard, user }) => {
  const { day_id, direction } = readQuery(request, TopupsQuery);
  const file = await dayExport(
    dashboard.db,
    { kind: "topups", direction: direction ?? null },
    day_id ?? null,
    requestLocale(request, user),
  );
  return csvResponse(file.body, file.fileName);
});
