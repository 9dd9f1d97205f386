import { NextResponse } from "next/server";
import { z } from "zod";
import { route } from "@/lib/server/guard";
import { signOff } from "@/lib/server/reconciliation/night";
import { recordAudit } from "@/lib/server/staff/audit";
import { readBody } from "@/lib/server/staff/common";

const Body = z.object({
  day_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "day_id is not a valid id."),
  comment: z.string().max(2000).default(""),
  counted: z
    .array(
      z.object({
        device_id: z.string().max(200),
        payment_method: z.enum(["cash", "card"]),
        counted: z.number().int().min(-1e11).max(1e11),
      }),
    )
    .max(1000),
});

/** Signs a night off: counted money per desk and method, a comment, and a frozen snapshot. */
export const POST = route("reconciliation.signoff", async ({ request, user, dashboard }) => {
  const body = await readBody(request, Body);
  const signoff = await signOff(dashboard.db, user, body);
  await recordAudit(dashboard.db, {
    user,
    action: "reconciliation.signoff",
    target: body.day_id,
    outcome: "ok",
    detail: { signoff_id: signoff.id, sales_total: signoff.snapshot.figures.sales.total },
  });
  return NextResponse.json(signoff, { status: 201 });
});
