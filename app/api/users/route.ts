import { handle } from "@/lib/server/http/handle";
import { usersView } from "@/lib/server/users/users";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.users.list, ({ dashboard }) => usersView(dashboard));
