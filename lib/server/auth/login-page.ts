import "server-only";
import { homeFor } from "@/lib/shared/permissions";
import { getDashboard } from "../dashboard";
import { DEMO_USERS } from "./demo-users";
import { currentUser } from "./page-session";

/**
 * What the sign-in page needs: where a signed-in visitor goes instead, and the demo logins, shown
 * only by a sandbox (SANDBOX=on with a test key), never by a console against a real upstream.
 */
export async function loginPageState() {
  const dashboard = await getDashboard();
  const user = await currentUser(dashboard);
  const { config } = dashboard;
  const sandbox = config.SANDBOX === "on" && config.CASHLESS_API_KEY.startsWith("eak_test_");
  return { signedInHome: user ? homeFor(user.role) : null, demoUsers: sandbox ? DEMO_USERS : [] };
}
