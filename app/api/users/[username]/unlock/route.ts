import { handle } from "@/lib/server/http/handle";
import { changeUser } from "@/lib/server/users/users";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.users.unlock, ({ params, user, dashboard }) =>
  changeUser(dashboard, user, params.username, { kind: "unlock" }),
);
