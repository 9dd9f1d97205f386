import { handle } from "@/lib/server/http/handle";
import { requestLocale } from "@/lib/server/http/locale";
import { pdfResponse } from "@/lib/server/http/pdf-response";
import { signoffPdf } from "@/lib/server/night/report";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.night.pdf, async ({ params, request, user, dashboard }) => {
  const locale = requestLocale(request, user);
  const file = await signoffPdf(dashboard.db, params.id, locale, dashboard.clock());
  return pdfResponse(file.body, file.fileName);
});
