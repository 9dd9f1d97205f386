import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { terminalsView } from "@/lib/server/terminals/views";
import { TerminalsView } from "@/lib/shared/api/attention";

/** Every terminal's state as the sync worker last computed it, with today's figures. */
export const GET = route("terminals.view", async ({ dashboard }) =>
  answer(TerminalsView, await terminalsView(dashboard.db)),
);
