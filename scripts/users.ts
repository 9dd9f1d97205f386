/**
 * `npm run users -- add|list|remove|set-password`: staff accounts of the dashboard store
 * (DATABASE_URL, or the embedded store under DATA_DIR — stop the dashboard first in that case).
 */
import { parseArgs } from "node:util";
import { roles } from "../lib/permissions";
import { openDashboardStore } from "../lib/server/store";
import { addUser, listUsers, removeUser, setPassword, UserError } from "../lib/server/users";

const usage = `Usage:
  npm run users -- add USERNAME --role manager|supervisor|staff --password PASSWORD
  npm run users -- list
  npm run users -- remove USERNAME
  npm run users -- set-password USERNAME --password PASSWORD

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
      const users = await listUsers(db);
      for (const u of users) {
        const lock =
          u.locked_until && u.locked_until > new Date()
            ? ` (locked until ${u.locked_until.toISOString()})`
            : "";
        console.log(`${u.username.padEnd(24)} ${u.role}${lock}`);
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
      console.log(`Password of ${username} changed; the account is unlocked.`);
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
