import { z } from "zod";
import { readBody, readParams } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { keepWristband } from "@/lib/server/review/review";
import { CodeSegment, IdempotencyKey } from "@/lib/shared/api/params";
import { KeepAnswer } from "@/lib/shared/api/staff";

const Body = z.object({ idempotency_key: IdempotencyKey });

/** "Keep this one": the wristband becomes active, the others blocked, their balances move to it. */
export const POST = route<{ code: string }>(
  "review.resolve",
  async ({ request, user, dashboard, params }) => {
    const { code } = readParams(params, CodeSegment);
    const body = await readBody(request, Body);
    return answer(KeepAnswer, {
      wristband: await keepWristband(dashboard, user, code, body.idempotency_key),
    });
  },
);
