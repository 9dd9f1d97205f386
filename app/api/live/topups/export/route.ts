import { handle } from "@/lib/server/http/handle";
import { requestLocale } from "@/lib/server/http/locale";
import { csvResponse } from "@/lib/server/http/respond";
import { dayExport } from "@/lib/server/sales/sales-csv";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.live.topupsExport, async ({ query, request, dashboard, user }) => {
  const flows = { kind: "topups", direction: query.direction ?? null } as const;
  const locale = requestLocale(request, user);
  const file = await dayExport(dashboard.db, flows, query.day_id ?? null, locale, dashboard.clock());
  return csvResponse(file.body, file.fileName);
});
