import { NextResponse } from "next/server";
import { z } from "zod";
import { route } from "@/lib/server/guard";
import { auditedWrite } from "@/lib/server/staff/audit";
import { codeParam, IdempotencyKey, readBody } from "@/lib/server/staff/common";
import { forgetReviewPair } from "@/lib/server/staff/review";
import { getUpstreamClient, type RequestOptions } from "@/lib/server/upstream";

const Body = z.object({ idempotency_key: IdempotencyKey });

/** "Keep this one": the wristband becomes active, the others blocked, their balances move to it. */
export const POST = route<{ code: string }>(
  "review.resolve",
  async ({ request, user, dashboard, params }) => {
    const code = codeParam(params.code);
    const body = await readBody(request, Body);
    const client = getUpstreamClient(dashboard.config);
    const wristband = await auditedWrite(
      dashboard.db,
      {
        user,
        action: "review.keep",
        target: code,
        idempotencyKey: body.idempotency_key,
        summarize: (w) => ({
          balance: w.balance,
          promo_balance: w.promo_balance,
          ticket: w.ticket?.code ?? null,
        }),
      },
      (opts: RequestOptions) => client.reviewWristband(code, { decision: "keep" }, opts),
    );
    await forgetReviewPair(dashboard.db, wristband.ticket?.code ?? null, wristband.id);
    return NextResponse.json({ wristband });
  },
);
