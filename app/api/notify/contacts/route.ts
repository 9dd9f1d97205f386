import { handle } from "@/lib/server/http/handle";
import { addContact } from "@/lib/server/notify";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.notify.addContact, ({ body, user, dashboard }) =>
  addContact(dashboard.db, dashboard.config, user, body, dashboard.clock()),
);
