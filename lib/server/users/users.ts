import "server-only";
import type { Queryable } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { AccountView, UserActionAnswer, UsersView } from "@/lib/shared/api/users";
import { accountStates, endSessionsOf, setRole, UserError, unlockAccount } from "../auth/accounts";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { recordAudit } from "../store/audit-log";
import { eventFormat } from "../store/event-settings";
import { failureCounts, recentSignInFailures } from "../store/sign-in-throttle";

/**
 * The users screen (managers): every account with its lock for new browsers, live sessions and
 * recent failed sign-ins; unlock, end every session, change the role. Each change is audited.
 */

const DAY_MS = 24 * 3600_000;

async function accounts(db: Queryable, now: Date): Promise<AccountView[]> {
  const [states, counts] = await Promise.all([
    accountStates(db, now),
    failureCounts(db, new Date(now.getTime() - DAY_MS)),
  ]);
  return states.map((u) => ({
    username: u.username,
    role: u.role,
    created_at: u.created_at,
    locked_until: u.locked_until,
    sessions: u.sessions,
    failures_24h: counts.byUser.get(u.username) ?? 0,
  }));
}

export async function usersView(dashboard: Dashboard): Promise<UsersView> {
  const { db } = dashboard;
  const now = dashboard.clock();
  const [users, failures, counts, format] = await Promise.all([
    accounts(db, now),
    recentSignInFailures(db, 50),
    failureCounts(db, new Date(now.getTime() - DAY_MS)),
    eventFormat(db),
  ]);
  return {
    users,
    failures: failures.map(({ id: _, username, ...f }) => ({ ...f, username: username ?? "" })),
    unknown_failures_24h: counts.unknown,
    timeZone: format.timeZone,
  };
}

async function accountOf(db: Queryable, username: string, now: Date): Promise<AccountView> {
  const found = (await accounts(db, now)).find((u) => u.username === username);
  if (!found) throw new ConsoleError("not_found", `There is no user ${username}.`);
  return found;
}

export type UserAction = { kind: "unlock" } | { kind: "sign_out" } | { kind: "role"; role: string };

/** Unlocks, signs out everywhere or changes the role of a user; audited; answers the account after. */
export async function changeUser(
  dashboard: Dashboard,
  manager: SessionUser,
  username: string,
  action: UserAction,
): Promise<UserActionAnswer> {
  const { db } = dashboard;
  const before = await accountOf(db, username, dashboard.clock());
  let ended = 0;
  let changed = true;
  try {
    if (action.kind === "unlock") {
      changed = before.locked_until !== null;
      await unlockAccount(db, username);
    } else if (action.kind === "sign_out") {
      ended = await endSessionsOf(db, username);
      changed = ended > 0;
    } else {
      if (username === manager.username)
        throw new ConsoleError("forbidden", "Your own role is changed by another manager.");
      const result = await setRole(db, username, action.role);
      changed = result.changed;
      ended = result.endedSessions;
    }
  } catch (err) {
    if (err instanceof UserError) throw new ConsoleError("invalid_parameter", err.message);
    throw err;
  }
  await recordAudit(db, {
    user: manager,
    action: `users.${action.kind}`,
    target: username,
    // A role change to the role the user has already is kept too, as what it was: nothing.
    outcome: changed || action.kind !== "role" ? "ok" : "unchanged",
    detail:
      action.kind === "role"
        ? { from: before.role, to: action.role, ended_sessions: ended }
        : { ended_sessions: ended },
  });
  return { user: await accountOf(db, username, dashboard.clock()), ended_sessions: ended, changed };
}
