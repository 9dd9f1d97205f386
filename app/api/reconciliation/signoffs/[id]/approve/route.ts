import { readBody, readParams } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { approveSignoff } from "@/lib/server/night/signoff";
import { SignoffSegment } from "@/lib/shared/api/params";
import { ApprovalRequest, Signoff } from "@/lib/shared/api/reconciliation";

/** A manager approves a sign-off whose variance is beyond the tolerance: it becomes final. */
export const POST = route<{ id: string }>(
  "reconciliation.approve",
  async ({ request, user, dashboard, params }) => {
    const { id } = readParams(params, SignoffSegment);
    const { comment } = await readBody(request, ApprovalRequest);
    return answer(Signoff, await approveSignoff(dashboard.db, user, id, comment), 201);
  },
);
