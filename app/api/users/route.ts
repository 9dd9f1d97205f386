import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { usersView } from "@/lib/server/users/users";
import { UsersView } from "@/lib/shared/api/users";

/** Every account with its lock, live sessions and recent failed sign-ins (managers). */
export const GET = route("users.manage", async ({ dashboard }) =>
  answer(UsersView, await usersView(dashboard)),
);
