import { handle } from "@/lib/server/http/handle";
import { removeContact } from "@/lib/server/notify";
import { endpoints } from "@/lib/shared/api/endpoints";

export const DELETE = handle(endpoints.notify.removeContact, ({ params, user, dashboard }) =>
  removeContact(dashboard.db, user, params.id),
);
