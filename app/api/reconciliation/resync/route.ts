import { z } from "zod";
import { readBody } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { requestResync } from "@/lib/server/night/night";
import { DayId } from "@/lib/shared/api/params";
import { ResyncAnswer } from "@/lib/shared/api/reconciliation";

const Body = z.object({ day_id: DayId });

/** "Re-sync this night": the sync worker re-walks the day on its next cycle. */
export const POST = route("reconciliation.signoff", async ({ request, user, dashboard }) => {
  const { day_id } = await readBody(request, Body);
  return answer(ResyncAnswer, await requestResync(dashboard.db, day_id, user.username), 202);
});
