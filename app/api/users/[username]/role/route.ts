import { readBody, readParams } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { changeUser } from "@/lib/server/users/users";
import { RoleBody, UserActionAnswer, UsernameSegment } from "@/lib/shared/api/users";

/** A new role for a user: their sessions end, they sign in again with the new role's screens. */
export const POST = route<{ username: string }>(
  "users.manage",
  async ({ request, user, dashboard, params }) => {
    const { username } = readParams(params, UsernameSegment);
    const { role } = await readBody(request, RoleBody);
    return answer(UserActionAnswer, await changeUser(dashboard, user, username, { kind: "role", role }));
  },
);
