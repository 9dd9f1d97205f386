import "server-only";
import { redirect } from "next/navigation";
import { can, type Permission } from "@/lib/permissions";
import { getDashboard } from "./dashboard";
import { currentUser, type SessionUser } from "./guard";

/** For pages: the signed-in user allowed to see this screen, or a redirect / a forbidden result. */
export async function pageUser(permission: Permission): Promise<{ user: SessionUser; allowed: boolean }> {
  const user = await currentUser(await getDashboard());
  if (!user) redirect("/login");
  return { user, allowed: can(user.role, permission) };
}
