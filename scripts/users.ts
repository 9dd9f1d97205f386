/**
 * `npm run users -- add|list|remove|set-password|set-role|unlock|sign-out`: staff accounts of the
 * dashboard store (DATABASE_URL, or the embedded store under DATA_DIR — stop the dashboard first in
 * that case). A password or role change, and sign-out, end the user's sessions at once.
 */
import { parseArgs } from "node:util";
import {
  accountStates,
  addUser,
  endSessionsOf,
  removeUser,
  setPassword,
  setRole,
  UserError,
  unlockAccount,
} from "../lib/server/auth/accounts";
import { openDashboardStore } from "../lib/server/store";
import { roles } from "../lib/shared/permissions";

const usage = `Usage:
  npm run users -- add USERNAME --role manager|supervisor|staff --password PASSWORD
  npm run users -- list
  npm run users -- remove USERNAME
  npm run users -- set-password USERNAME --password PASSWORD   (ends their sessions, unlocks)
  npm run users -- set-role USERNAME --role manager|supervisor|staff   (ends their sessions)
  npm run users -- unlock USERNAME      (sign-in from new browsers allowed again)
  npm run users -- sign-out USERNAME    (ends every session of the user)
Environment: DATABASE_URL (PostgreSQL) or DATA_DIR (default .data, embedded store).
The password may also come from the USER_PASSWORD variable, so it stays out of the shell history.`;

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { role: { type: "string" }, password: { type: "string" }, help: { type: "boolean" } },
  });
  const [command, username] = positionals;
  if (values.help || !command) return console.log(usage);
  const password = values.password ?? process.env.USER_PASSWORD ?? "";
  const db = await openDashboardStore({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.DATA_DIR || ".data",
  });
  try {
    if (command === "list") {
      const users = await accountStates(db);
      for (const u of users) {
        const lock = u.locked_until ? ` (locked for new browsers until ${u.locked_until})` : "";
        console.log(`${u.username.padEnd(24)} ${u.role.padEnd(10)} ${u.sessions} session(s)${lock}`);
      }
      if (!users.length) console.log("No users.");
    } else if (command === "add" && username) {
      if (!values.role || !(roles as readonly string[]).includes(values.role)) {
        throw new UserError(`role: one of ${roles.join(", ")}`);
      }
      const user = await addUser(db, username, password, values.role as (typeof roles)[number]);
      console.log(`Added ${user.username} (${user.role}).`);
    } else if (command === "remove" && username) {
      await removeUser(db, username);
      console.log(`Removed ${username}.`);
    } else if (command === "set-password" && username) {
      await setPassword(db, username, password);
      console.log(`Password of ${username} changed; their sessions ended; the account is unlocked.`);
    } else if (command === "set-role" && username) {
      const { changed, endedSessions } = await setRole(db, username, values.role ?? "");
      console.log(
        changed
          ? `${username} is now ${values.role}; ${endedSessions} session(s) ended.`
          : `${username} is ${values.role} already: nothing changed, no session ended.`,
      );
    } else if (command === "unlock" && username) {
      await unlockAccount(db, username);
      console.log(`${username} can sign in from new browsers again.`);
    } else if (command === "sign-out" && username) {
      console.log(`Ended ${await endSessionsOf(db, username)} session(s) of ${username}.`);
    } else {
      console.error(usage);
      process.exitCode = 2;
    }
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((err) => {
  console.error(`users: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 1;
});
