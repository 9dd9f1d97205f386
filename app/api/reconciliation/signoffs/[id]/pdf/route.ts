import { readParams } from "@/lib/server/http/input";
import { requestLocale } from "@/lib/server/http/locale";
import { pdfResponse } from "@/lib/server/http/pdf-response";
import { route } from "@/lib/server/http/route";
import { signoffPdf } from "@/lib/server/night/report";
import { SignoffSegment } from "@/lib/shared/api/params";

/** The night report of a sign-off as a PDF, made on the server from its frozen snapshot. */
export const GET = route<{ id: string }>(
  "reconciliation.view",
  async ({ request, user, dashboard, params }) => {
    const { id } = readParams(params, SignoffSegment);
    const file = await signoffPdf(dashboard.db, id, requestLocale(request, user));
    return pdfResponse(file.body, file.fileName);
  },
);
