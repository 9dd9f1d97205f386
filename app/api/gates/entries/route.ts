import { entriesView } from "@/lib/server/gates/views";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.gates.entries, ({ query, dashboard }) =>
  entriesView(dashboard.db, query.day_id, dashboard.clock()),
);
