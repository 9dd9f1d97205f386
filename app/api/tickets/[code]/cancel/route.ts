import { NextResponse } from "next/server";
import { z } from "zod";
import { route } from "@/lib/server/guard";
import { auditedWrite } from "@/lib/server/staff/audit";
import { codeParam, IdempotencyKey, readBody } from "@/lib/server/staff/common";
import { getUpstreamClient, type RequestOptions } from "@/lib/server/upstream";

const Body = z.object({ idempotency_key: IdempotencyKey });

/** Cancel a ticket (manager; the screen asks for a confirmation first). */
export const POST = route<{ code: string }>(
  "tickets.cancel",
  async ({ request, user, dashboard, params }) => {
    const code = codeParam(params.code);
    const body = await readBody(request, Body);
    const client = getUpstreamClient(dashboard.config);
    const ticket = await auditedWrite(
      dashboard.db,
      { user, action: "tickets.cancel", target: code, idempotencyKey: body.idempotency_key },
      (opts: RequestOptions) => client.cancelTicket(code, opts),
    );
    return NextResponse.json({ ticket });
  },
);
