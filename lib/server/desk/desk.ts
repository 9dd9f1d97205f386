import "server-only";
import { z } from "zod";
import type { Topup } from "@/lib/contract";
import { CodeParam, DeskName, type DeskQuoteQuery, IdempotencyKey, RecordId } from "@/lib/shared/api/params";
import type { DeskQuote } from "@/lib/shared/api/staff";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { auditedWrite } from "../http/audited-write";
import { liveLookup } from "../http/lookup-budget";
import { callUpstream } from "../http/upstream-errors";
import { eventFormat } from "../store/event-settings";

export const DeskBody = z.object({
  code: CodeParam,
  amount: z
    .number()
    .int()
    .min(1, "The amount must be at least 0.01.")
    .max(999999, "The amount is too large."),
  payment_method: z.enum(["card", "cash", "online"]),
  bonus_amount: z.number().int().min(0).max(999999).optional(),
  bonus_rule: RecordId.nullable().optional(),
  idempotency_key: IdempotencyKey,
  desk: DeskName,
});
export type DeskBody = z.infer<typeof DeskBody>;
export const WithdrawalBody = DeskBody.omit({ bonus_amount: true, bonus_rule: true });

/** The live bonus quote for the amounts on the desk's screen, for this person (cap and in-flight rules). */
export async function deskQuote(
  dashboard: Dashboard,
  user: SessionUser,
  query: z.output<typeof DeskQuoteQuery>,
): Promise<DeskQuote> {
  const { currency } = await eventFormat(dashboard.db);
  const amounts = query.amounts.filter((a) => a >= 1);
  if (!amounts.length) return { quote: [], currency };
  const quote = await callUpstream(() =>
    dashboard.upstream.quote(
      { amounts, code: query.code, pending_rules: query.pending_rules },
      liveLookup(dashboard, user),
    ),
  );
  return { quote: quote.data, currency };
}

/** A top-up (with the quoted bonus) or a withdrawal, sent once per Idempotency-Key and audited. */
export function deskWrite(
  dashboard: Dashboard,
  user: SessionUser,
  direction: "topup" | "withdraw",
  body: DeskBody,
): Promise<Topup> {
  const request =
    direction === "topup"
      ? {
          code: body.code,
          amount: body.amount,
          direction,
          payment_method: body.payment_method,
          bonus_amount: body.bonus_amount ?? 0,
          bonus_rule: body.bonus_rule ?? null,
          device_id: body.desk,
        }
      : {
          code: body.code,
          amount: body.amount,
          direction,
          payment_method: body.payment_method,
          device_id: body.desk,
        };
  return auditedWrite(
    dashboard.db,
    {
      user,
      action: direction === "topup" ? "topups.create" : "withdrawals.create",
      target: body.code,
      idempotencyKey: body.idempotency_key,
      detail: { ...request },
      summarize: (t: Topup) => ({ topup_id: t.id, new_balance: t.new_balance }),
    },
    (opts) => dashboard.upstream.createTopup(request, opts),
  );
}
