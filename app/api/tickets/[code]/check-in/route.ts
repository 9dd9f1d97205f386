import { NextResponse } from "next/server";
import { z } from "zod";
import { route } from "@/lib/server/guard";
import { auditedWrite } from "@/lib/server/staff/audit";
import { CodeParam, codeParam, IdempotencyKey, readBody } from "@/lib/server/staff/common";
import { getUpstreamClient, type RequestOptions } from "@/lib/server/upstream";

const Body = z.object({
  nfc: CodeParam,
  uhf: CodeParam.optional(),
  idempotency_key: IdempotencyKey,
});

/** Check a ticket in, linking a wristband (entered or scanned). */
export const POST = route<{ code: string }>(
  "tickets.checkin",
  async ({ request, user, dashboard, params }) => {
    const code = codeParam(params.code);
    const body = await readBody(request, Body);
    const client = getUpstreamClient(dashboard.config);
    const ticket = await auditedWrite(
      dashboard.db,
      {
        user,
        action: "tickets.check_in",
        target: code,
        idempotencyKey: body.idempotency_key,
        detail: { nfc: body.nfc, ...(body.uhf ? { uhf: body.uhf } : {}) },
        summarize: (t) => ({ status: t.status }),
      },
      (opts: RequestOptions) =>
        client.checkIn(
          code,
          { wristband: { nfc: body.nfc, ...(body.uhf ? { uhf: body.uhf } : {}) }, device_id: "dashboard" },
          opts,
        ),
    );
    return NextResponse.json({ ticket });
  },
);
