import { misuseList } from "@/lib/server/gates/views";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.gates.misuse, ({ query, dashboard }) =>
  misuseList(dashboard.db, query.case),
);
