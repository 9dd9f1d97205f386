import { wristbandSales } from "@/lib/server/gate/wristbands";
import { readParams, readQuery } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { CodeSegment, SalesPageQuery } from "@/lib/shared/api/params";
import { SalesPage } from "@/lib/shared/api/staff";

/** One page (25) of a wristband's sales, live, with items and taxes. */
export const GET = route<{ code: string }>(
  "wristbands.view",
  async ({ request, user, dashboard, params }) => {
    const { code } = readParams(params, CodeSegment);
    const { starting_after } = readQuery(request, SalesPageQuery);
    return answer(SalesPage, await wristbandSales(dashboard, user, code, starting_after));
  },
);
