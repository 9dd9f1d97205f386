import { handle } from "@/lib/server/http/handle";
import { requestLocale } from "@/lib/server/http/locale";
import { csvResponse } from "@/lib/server/http/respond";
import { dayExport } from "@/lib/server/sales/sales-csv";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.live.salesExport, async ({ query, request, dashboard, user }) => {
  const locale = requestLocale(request, user);
  const file = await dayExport(
    dashboard.db,
    { kind: "sales" },
    query.day_id ?? null,
    locale,
    dashboard.clock(),
  );
  return csvResponse(file.body, file.fileName);
});
