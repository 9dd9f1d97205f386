import { handle } from "@/lib/server/http/handle";
import { saveDraft } from "@/lib/server/night/counting";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.night.draft, ({ body, user, dashboard }) =>
  saveDraft(dashboard.db, user, body, dashboard.clock()),
);
