import { deskWrite, WithdrawalBody } from "@/lib/server/desk/desk";
import { readBody } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { DeskAnswer } from "@/lib/shared/api/staff";

/** A refund of paid balance (never the promo balance); more than the balance is insufficient_balance. */
export const POST = route("withdrawals.create", async ({ request, user, dashboard }) => {
  const topup = await deskWrite(dashboard, user, "withdraw", await readBody(request, WithdrawalBody));
  return answer(DeskAnswer, { topup }, 201);
});
