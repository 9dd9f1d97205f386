import { wristbandView } from "@/lib/server/gate/wristbands";
import { readParams } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { CodeSegment } from "@/lib/shared/api/params";
import { WristbandView } from "@/lib/shared/api/staff";

/** One wristband, live, with its top-ups (from the mirror: the API has no per-wristband top-up list). */
export const GET = route<{ code: string }>("wristbands.view", async ({ user, dashboard, params }) =>
  answer(WristbandView, await wristbandView(dashboard, user, readParams(params, CodeSegment).code)),
);
