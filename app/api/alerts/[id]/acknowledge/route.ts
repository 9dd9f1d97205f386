import { acknowledge } from "@/lib/server/alerts/views";
import { readBody, readParams } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { AcknowledgeRequest, Alert } from "@/lib/shared/api/attention";
import { AlertSegment } from "@/lib/shared/api/params";

/** Acknowledges an alert: who, when and a comment stay with it (and in the audit log). */
export const POST = route<{ id: string }>(
  "alerts.acknowledge",
  async ({ request, user, dashboard, params }) => {
    const { id } = readParams(params, AlertSegment);
    const { comment } = await readBody(request, AcknowledgeRequest);
    return answer(Alert, await acknowledge(dashboard.db, user, id, comment));
  },
);
