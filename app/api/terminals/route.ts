import { handle } from "@/lib/server/http/handle";
import { terminalsView } from "@/lib/server/terminals/views";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.terminals.list, ({ dashboard }) =>
  terminalsView(dashboard.db, dashboard.clock()),
);
