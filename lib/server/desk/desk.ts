import "server-only";
import type { z } from "zod";
import type { Topup } from "@/lib/contract";
import type { DeskQuoteQuery } from "@/lib/shared/api/params";
import type { DeskBody, DeskQuote } from "@/lib/shared/api/staff";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { auditedWrite } from "../http/audited-write";
import { liveLookup } from "../http/lookup-budget";
import { callUpstream } from "../http/upstream-errors";
import { eventFormat } from "../store/event-settings";

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
