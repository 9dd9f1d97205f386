import { readQuery } from "@/lib/server/http/input";
import { requestLocale } from "@/lib/server/http/locale";
import { csvResponse } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { nightTolerance } from "@/lib/server/night/night";
import { nightExport } from "@/lib/server/night/night-csv";
import { DayQuery } from "@/lib/shared/api/params";

/** The night's figures as CSV (the same numbers as the screen). */
export const GET = route("reconciliation.view", async ({ request, dashboard, user }) => {
  const { day_id } = readQuery(request, DayQuery);
  const file = await nightExport(
    dashboard.db,
    day_id ?? null,
    requestLocale(request, user),
    nightTolerance(dashboard.config),
  );
  return csvResponse(file.body, file.fileName);
});
