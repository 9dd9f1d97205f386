import { deskWrite } from "@/lib/server/desk/desk";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.desk.withdrawal, async ({ body, user, dashboard }) => ({
  topup: await deskWrite(dashboard, user, "withdraw", body),
}));
