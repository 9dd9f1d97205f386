/**
 * `npm run users -- add|list|remove|set-password|set-role|unlock|sign-out`: staff accounts of the
 * dashboard store (DATABASE_URL, or the embedded store under DATA_DIR — stop the dashboard first in
 * that case). A password or role change, and sign-out, end the user's sessions at once.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Db } from "../lib/db/db";
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

export interface UsersCliOptions {
  /** DATABASE_URL, DATA_DIR and USER_PASSWORD are read here. */
  env: Record<string, string | undefined>;
  /** Where the command's report goes, one line per call (stdout). */
  out: (line: string) => void;
  /** Where usage and errors go (stderr). */
  err: (line: string) => void;
  /** A store opened (and migrated) already, left open; by default the one `env` names is opened and closed. */
  db?: Db;
}

/** Runs one command of the CLI and answers its exit code: 0 done, 1 refused or failed, 2 usage. */
export async function runUsersCli(argv: string[], options: UsersCliOptions): Promise<number> {
  try {
    return await runCommand(argv, options);
  } catch (error) {
    options.err(`users: ${error instanceof Error ? error.message : error}`);
    return 1;
  }
}

async function runCommand(argv: string[], { env, out, err, db: given }: UsersCliOptions): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { role: { type: "string" }, password: { type: "string" }, help: { type: "boolean" } },
  });
  const [command, username] = positionals;
  if (values.help || !command) {
    out(usage);
    return 0;
  }
  const password = values.password ?? env.USER_PASSWORD ?? "";
  const db =
    given ??
    (await openDashboardStore({
      databaseUrl: env.DATABASE_URL || undefined,
      dataDir: env.DATA_DIR || ".data",
    }));
  try {
    if (command === "list") {
      const users = await accountStates(db);
      for (const u of users) {
        const lock = u.locked_until ? ` (locked for new browsers until ${u.locked_until})` : "";
        out(`${u.username.padEnd(24)} ${u.role.padEnd(10)} ${u.sessions} session(s)${lock}`);
      }
      if (!users.length) out("No users.");
    } else if (command === "add" && username) {
      if (!values.role || !(roles as readonly string[]).includes(values.role)) {
        throw new UserError(`role: one of ${roles.join(", ")}`);
      }
      const user = await addUser(db, username, password, values.role as (typeof roles)[number]);
      out(`Added ${user.username} (${user.role}).`);
    } else if (command === "remove" && username) {
      await removeUser(db, username);
      out(`Removed ${username}.`);
    } else if (command === "set-password" && username) {
      await setPassword(db, username, password);
      out(`Password of ${username} changed; their sessions ended; the account is unlocked.`);
    } else if (command === "set-role" && username) {
      const { changed, endedSessions } = await setRole(db, username, values.role ?? "");
      out(
        changed
          ? `${username} is now ${values.role}; ${endedSessions} session(s) ended.`
          : `${username} is ${values.role} already: nothing changed, no session ended.`,
      );
    } else if (command === "unlock" && username) {
      await unlockAccount(db, username);
      out(`${username} can sign in from new browsers again.`);
    } else if (command === "sign-out" && username) {
      out(`Ended ${await endSessionsOf(db, username)} session(s) of ${username}.`);
    } else {
      err(usage);
      return 2;
    }
    return 0;
  } finally {
    if (!given) await db.close();
  }
}

/** Whether this module is the process's entry point (`npm run users`), not imported (tests). */
function isEntryPoint(): boolean {
  try {
    return realpathSync(process.argv[1] ?? "") === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  runUsersCli(process.argv.slice(2), {
    env: process.env,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  }).then((code) => {
    process.exitCode = code;
  });
}
