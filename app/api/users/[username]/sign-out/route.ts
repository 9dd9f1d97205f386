import { readParams } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { changeUser } from "@/lib/server/users/users";
import { UserActionAnswer, UsernameSegment } from "@/lib/shared/api/users";

/** Ends every session of a user, on every instance (a lost phone, a stolen cookie). */
export const POST = route<{ username: string }>("users.manage", async ({ user, dashboard, params }) => {
  const { username } = readParams(params, UsernameSegment);
  return answer(UserActionAnswer, await changeUser(dashboard, user, username, { kind: "sign_out" }));
});
