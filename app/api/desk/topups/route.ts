import { DeskBody, deskWrite } from "@/lib/server/desk/desk";
import { readBody } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { DeskAnswer } from "@/lib/shared/api/staff";

/** A top-up at the desk: the quoted bonus is sent along; a changed bonus is 409 bonus_mismatch. */
export const POST = route("topups.create", async ({ request, user, dashboard }) => {
  const topup = await deskWrite(dashboard, user, "topup", await readBody(request, DeskBody));
  return answer(DeskAnswer, { topup }, 201);
});
