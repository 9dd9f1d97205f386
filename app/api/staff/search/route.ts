import { search } from "@/lib/server/gate/search";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.gate.search, ({ query, user, dashboard }) =>
  search(dashboard, user, query.q),
);
