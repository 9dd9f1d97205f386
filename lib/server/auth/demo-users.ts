import "server-only";
import type { Role } from "@/lib/shared/permissions";

/**
 * The sandbox's demo logins, one per role. `npm start` creates them only for the embedded demo
 * upstream, and only a sandbox (SANDBOX=on with a test key) ever shows them.
 */
export const DEMO_USERS: readonly { username: string; password: string; role: Role }[] = [
  { username: "manager", password: "manager-demo-pass", role: "manager" },
  { username: "supervisor", password: "supervisor-demo-pass", role: "supervisor" },
  { username: "staff", password: "staff-demo-pass", role: "staff" },
];
