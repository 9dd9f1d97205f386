import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { readBody } from "@/lib/server/staff/common";
import { DeskBody, deskWrite } from "@/lib/server/staff/desk";

/** A refund of paid balance (never the promo balance); more than the balance is insufficient_balance. */
export const POST = route("withdrawals.create", async ({ request, user, dashboard }) => {
  const body = await readBody(request, DeskBody.omit({ bonus_amount: true, bonus_rule: true }));
  const topup = await deskWrite(dashboard, user, "withdraw", body);
  return NextResponse.json({ topup }, { status: 201 });
});
