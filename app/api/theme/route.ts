import { chooseTheme } from "@/lib/server/auth/theme";
import { answered, handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.theme.choose, async ({ dashboard, session, body }) => {
  const result = await chooseTheme(dashboard, session, body.theme);
  return answered(result.answer, { cookies: result.cookies });
});
