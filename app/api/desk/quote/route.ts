import { deskQuote } from "@/lib/server/desk/desk";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.desk.quote, ({ query, user, dashboard }) =>
  deskQuote(dashboard, user, query),
);
