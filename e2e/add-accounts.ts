/**
 * The e2e sandbox's extra accounts (e2e/start-sandbox.sh): the sign-in tests' victims and the
 * accessibility spec's own accounts, added through the users CLI's commands in one process on one
 * opened store, instead of one `npm run users` (a Node start and a store opening each) per account.
 */

import { openDashboardStore } from "../lib/server/store";
import { runUsersCli } from "../scripts/users";

const accounts: [username: string, role: string, password: string][] = [
  ["lockout-victim", "staff", "lockout-test-pass"],
  ["trusted-victim", "manager", "trusted-test-pass"],
  ...["manager", "supervisor", "staff"].map((role): [string, string, string] => [
    `a11y-${role}`,
    role,
    `a11y-${role}-pass`,
  ]),
];

const db = await openDashboardStore({ dataDir: process.env.DATA_DIR || ".data" });
try {
  for (const [username, role, password] of accounts) {
    const code = await runUsersCli(["add", username, "--role", role], {
      env: { USER_PASSWORD: password },
      out: (line) => console.log(line),
      err: (line) => console.error(line),
      db,
    });
    if (code !== 0) process.exitCode = code;
  }
} finally {
  await db.close();
}
