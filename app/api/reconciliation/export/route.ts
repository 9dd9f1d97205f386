import { handle } from "@/lib/server/http/handle";
import { requestLocale } from "@/lib/server/http/locale";
import { csvResponse } from "@/lib/server/http/respond";
import { nightTolerance } from "@/lib/server/night/night";
import { nightExport } from "@/lib/server/night/night-csv";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.night.export, async ({ query, request, dashboard, user }) => {
  const locale = requestLocale(request, user);
  const file = await nightExport(
    dashboard.db,
    query.day_id ?? null,
    locale,
    nightTolerance(dashboard.config),
    dashboard.clock(),
  );
  return csvResponse(file.body, file.fileName);
});
