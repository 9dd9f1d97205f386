import { NextResponse } from "next/server";
import { z } from "zod";
import { HttpError, route } from "@/lib/server/guard";
import { CodeParam, eventCurrency } from "@/lib/server/staff/common";
import { upstream } from "@/lib/server/staff/errors";
import { getUpstreamClient } from "@/lib/server/upstream";

const Query = z.object({
  amounts: z
    .string()
    .regex(/^\d{1,6}(,\d{1,6}){0,19}$/)
    .transform((s) => s.split(",").map(Number)),
  code: CodeParam.optional(),
  pending_rules: z
    .string()
    .regex(/^[0-9a-f]{24}(,[0-9a-f]{24}){0,49}$/)
    .transform((s) => s.split(","))
    .optional(),
});

/** The live bonus quote for the amounts on the desk's screen, for this person (cap and in-flight rules). */
export const GET = route("topups.create", async ({ request, dashboard }) => {
  const raw = Object.fromEntries([...new URL(request.url).searchParams].filter(([, v]) => v !== ""));
  const parsed = Query.safeParse(raw);
  if (!parsed.success) throw new HttpError(400, "invalid_request", "Bad amounts for a quote.");
  const amounts = parsed.data.amounts.filter((a) => a >= 1);
  if (!amounts.length) return NextResponse.json({ quote: [], currency: await eventCurrency(dashboard.db) });
  const quote = await upstream(() =>
    getUpstreamClient(dashboard.config).quote({
      amounts,
      code: parsed.data.code,
      pending_rules: parsed.data.pending_rules,
    }),
  );
  return NextResponse.json({ quote: quote.data, currency: await eventCurrency(dashboard.db) });
});
