import { readParams } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { changeUser } from "@/lib/server/users/users";
import { UserActionAnswer, UsernameSegment } from "@/lib/shared/api/users";

/** Lifts the lock for new browsers that failures from elsewhere put on an account. */
export const POST = route<{ username: string }>("users.manage", async ({ user, dashboard, params }) => {
  const { username } = readParams(params, UsernameSegment);
  return answer(UserActionAnswer, await changeUser(dashboard, user, username, { kind: "unlock" }));
});
