import { handle } from "@/lib/server/http/handle";
import { approveSignoff } from "@/lib/server/night/signoff";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.night.approve, ({ params, body, user, dashboard }) =>
  approveSignoff(dashboard.db, user, params.id, body.comment, dashboard.clock()),
);
