"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { inputClass, secondaryButtonClass } from "@/components/ui/class-names";
import { DataTable, numeric } from "@/components/ui/data-table";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { fetchJson, postJson } from "@/lib/shared/api/client";
import { type AccountView, UserActionAnswer, UsersView } from "@/lib/shared/api/users";
import { dateTime } from "@/lib/shared/format/time";
import { type Role, roles } from "@/lib/shared/permissions";

/**
 * Staff accounts (managers): who is locked out of new browsers by failed sign-ins, who is signed in
 * where, the latest failures; unlock, end every session, change a role. Refreshed every 30 s.
 */
export function UsersScreen({ me }: { me: string }) {
  const query = useQuery({
    queryKey: ["users"],
    queryFn: () => fetchJson("/api/users", UsersView),
    refetchInterval: 30_000,
  });
  if (query.isPending) return <Loading what="the users" />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { users, failures, unknown_failures_24h, timeZone } = query.data;
  const at = (t: string) => dateTime(t, timeZone);
  return (
    <div className="space-y-4">
      <Panel title="Accounts">
        <p className="mb-3 text-sm text-slate-600">
          Five failed sign-ins lock an account for new browsers for 15 minutes; browsers that signed in to it
          before still can. Ending sessions or changing a role signs the person out everywhere at once.
        </p>
        <DataTable
          caption="Accounts, their sign-in state and sessions"
          hiddenCaption
          columns={[
            "User",
            "Role",
            "New browsers",
            numeric("Signed in"),
            numeric("Failed (24 h)"),
            { label: "Actions", hiddenLabel: true },
          ]}
          rows={users.map((u) => ({
            key: u.username,
            cells: [
              u.username,
              <RoleCell key="role" account={u} me={me} />,
              u.locked_until ? (
                <span key="lock" className="font-medium text-red-800">
                  Locked until {at(u.locked_until)}
                </span>
              ) : (
                "allowed"
              ),
              u.sessions,
              u.failures_24h,
              <Actions key="actions" account={u} />,
            ],
          }))}
        />
      </Panel>
      <Panel title="Recent failed sign-ins">
        <p className="mb-2 text-sm text-slate-600">
          {unknown_failures_24h} failed sign-in(s) for usernames that do not exist in the last 24 hours (what
          was typed is not kept).
        </p>
        <DataTable
          caption="Failed sign-ins, newest first"
          hiddenCaption
          columns={["When", "User", "From", "Browser", "Outcome"]}
          empty={<Empty plain>No failed sign-ins.</Empty>}
          rows={failures.map((f, i) => ({
            key: `${f.at}-${i}`,
            cells: [
              at(f.at),
              <SafeText key="user" text={f.username} />,
              f.address ?? "unknown",
              f.trusted_device ? "signed in here before" : "new",
              f.outcome === "locked" ? "refused (locked)" : "wrong password",
            ],
          }))}
        />
      </Panel>
    </div>
  );
}

/** Posts a change of one account, then refreshes the list; its error shows beside the buttons. */
function useUserAction(username: string) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function run(action: "unlock" | "sign-out" | "role", body: Record<string, unknown> = {}) {
    setBusy(true);
    setError(null);
    try {
      await postJson(`/api/users/${encodeURIComponent(username)}/${action}`, body, UserActionAnswer);
      await queryClient.invalidateQueries({ queryKey: ["users"] });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run };
}

function Actions({ account }: { account: AccountView }) {
  const { busy, error, run } = useUserAction(account.username);
  return (
    <div className="flex flex-wrap gap-2">
      {account.locked_until && (
        <button type="button" className={secondaryButtonClass} disabled={busy} onClick={() => run("unlock")}>
          Unlock {account.username}
        </button>
      )}
      {account.sessions > 0 && (
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={busy}
          onClick={() => run("sign-out")}
        >
          Sign {account.username} out everywhere
        </button>
      )}
      <ErrorBox error={error} className="w-full text-sm" />
    </div>
  );
}

function RoleCell({ account, me }: { account: AccountView; me: string }) {
  const { busy, error, run } = useUserAction(account.username);
  const [role, setRole] = useState<Role>(account.role);
  if (account.username === me) return <span>{account.role} (you)</span>;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="sr-only" htmlFor={`role-${account.username}`}>
        Role of {account.username}
      </label>
      <select
        id={`role-${account.username}`}
        value={role}
        onChange={(e) => setRole(e.target.value as Role)}
        className={inputClass}
      >
        {roles.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {role !== account.role && (
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={busy}
          onClick={() => run("role", { role })}
        >
          Make {account.username} {role}
        </button>
      )}
      <ErrorBox error={error} className="w-full text-sm" />
    </div>
  );
}
