import "server-only";
import { z } from "zod";
import type { Dashboard } from "@/lib/server/dashboard";
import type { SessionUser } from "@/lib/server/guard";
import { getUpstreamClient, type RequestOptions } from "@/lib/server/upstream";
import { auditedWrite } from "./audit";
import { CodeParam, IdempotencyKey } from "./common";

export const DeskBody = z.object({
  code: CodeParam,
  amount: z
    .number()
    .int()
    .min(1, "The amount must be at least 0.01.")
    .max(999999, "The amount is too large."),
  payment_method: z.enum(["card", "cash", "online"]),
  bonus_amount: z.number().int().min(0).max(999999).optional(),
  bonus_rule: z
    .string()
    .regex(/^[0-9a-f]{24}$/)
    .nullable()
    .optional(),
  idempotency_key: IdempotencyKey,
});
export type DeskBody = z.infer<typeof DeskBody>;

/** A top-up (with the quoted bonus) or a withdrawal, sent once per Idempotency-Key and audited. */
export function deskWrite(
  dashboard: Dashboard,
  user: SessionUser,
  direction: "topup" | "withdraw",
  body: DeskBody,
) {
  const client = getUpstreamClient(dashboard.config);
  const request =
    direction === "topup"
      ? {
          code: body.code,
          amount: body.amount,
          direction,
          payment_method: body.payment_method,
          bonus_amount: body.bonus_amount ?? 0,
          bonus_rule: body.bonus_rule ?? null,
        }
      : { code: body.code, amount: body.amount, direction, payment_method: body.payment_method };
  return auditedWrite(
    dashboard.db,
    {
      user,
      action: direction === "topup" ? "topups.create" : "withdrawals.create",
      target: body.code,
      idempotencyKey: body.idempotency_key,
      detail: { ...request },
      summarize: (t) => ({ topup_id: t.id, new_balance: t.new_balance }),
    },
    (opts: RequestOptions) => client.createTopup(request, opts),
  );
}
