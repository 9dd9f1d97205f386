"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { inputClass, secondaryButtonClass } from "@/components/ui/class-names";
import { DataTable, numeric } from "@/components/ui/data-table";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { keyOf, useEndpoint, useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { AccountView } from "@/lib/shared/api/users";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { dateTime } from "@/lib/shared/format/time";
import { type Role, roles } from "@/lib/shared/permissions";
import { WallsPanel } from "./walls-panel";

/**
 * Staff accounts (managers): who is locked out of new browsers by failed sign-ins, who is signed in
 * where, the latest failures; unlock, end every session, change a role. Refreshed every 30 s.
 */
export function UsersScreen({ me }: { me: string }) {
  const t = useTranslations("users");
  const locale = useIntlLocale();
  const query = useEndpoint(endpoints.users.list, {});
  if (query.isPending) return <Loading what={t("loading")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { users, failures, unknown_failures_24h, timeZone } = query.data;
  const at = (instant: string) => dateTime(instant, timeZone, locale);
  return (
    <div className="space-y-4">
      <Panel title={t("accounts")}>
        <p className="mb-3 text-sm text-slate-600">{t("intro")}</p>
        <DataTable
          caption={t("accountsCaption")}
          hiddenCaption
          columns={[
            t("user"),
            t("role"),
            t("newBrowsers"),
            numeric(t("signedIn")),
            numeric(t("failed24h")),
            { label: t("actions"), hiddenLabel: true },
          ]}
          rows={users.map((u) => ({
            key: u.username,
            cells: [
              <SafeText key="user" text={u.username} />,
              <RoleCell key="role" account={u} me={me} />,
              u.locked_until ? (
                <span key="lock" className="font-medium text-red-800">
                  {t("lockedUntil", { time: at(u.locked_until) })}
                </span>
              ) : (
                t("allowed")
              ),
              u.sessions,
              u.failures_24h,
              <Actions key="actions" account={u} />,
            ],
          }))}
        />
      </Panel>
      <Panel title={t("recentTitle")}>
        <p className="mb-2 text-sm text-slate-600">{t("unknownFailures", { count: unknown_failures_24h })}</p>
        <DataTable
          caption={t("failuresCaption")}
          hiddenCaption
          columns={[t("when"), t("user"), t("from"), t("browser"), t("outcome")]}
          empty={<Empty plain>{t("noFailures")}</Empty>}
          rows={failures.map((f, i) => ({
            key: `${f.at}-${i}`,
            cells: [
              at(f.at),
              <SafeText key="user" text={f.username} />,
              f.address ?? t("unknown"),
              f.trusted_device ? t("trustedDevice") : t("newDevice"),
              f.outcome === "locked" ? t("refusedLocked") : t("wrongPassword"),
            ],
          }))}
        />
      </Panel>
      <WallsPanel />
    </div>
  );
}

/**
 * Posts a change of one account, then refreshes the list; its error shows beside the buttons, and
 * so does the answer of a change that changed nothing (the role was already that one).
 */
function useUserAction(username: string) {
  const t = useTranslations("users");
  const roleName = useTranslations("roles");
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  // Busy until the list shows the change (onSuccess's promise is waited for).
  const refresh = () => queryClient.invalidateQueries({ queryKey: keyOf(endpoints.users.list) });
  const unlock = useWrite(endpoints.users.unlock, { onSuccess: refresh });
  const signOut = useWrite(endpoints.users.signOut, { onSuccess: refresh });
  const changeRole = useWrite(endpoints.users.role, {
    onSuccess: (answer) => {
      if (!answer.changed) setNotice(t("roleUnchanged", { username, role: roleName(answer.user.role) }));
      return refresh();
    },
  });
  const writes = [unlock, signOut, changeRole];
  function run(action: "unlock" | "sign-out" | "role", role?: Role) {
    // Only the last action's outcome is shown.
    setNotice(null);
    for (const write of writes) write.reset();
    const params = { username };
    if (action === "role") changeRole.mutate({ params, body: { role: role as Role } });
    else (action === "unlock" ? unlock : signOut).mutate({ params });
  }
  const busy = writes.some((write) => write.isPending);
  const error = unlock.error ?? signOut.error ?? changeRole.error;
  return { busy, error, notice, run };
}

function Actions({ account }: { account: AccountView }) {
  const t = useTranslations("users");
  const { busy, error, run } = useUserAction(account.username);
  return (
    <div className="flex flex-wrap gap-2">
      {account.locked_until && (
        <button type="button" className={secondaryButtonClass} disabled={busy} onClick={() => run("unlock")}>
          {t("unlock", { username: escapeBidi(account.username) })}
        </button>
      )}
      {account.sessions > 0 && (
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={busy}
          onClick={() => run("sign-out")}
        >
          {t("signOutEverywhere", { username: escapeBidi(account.username) })}
        </button>
      )}
      <ErrorBox error={error} className="w-full text-sm" />
    </div>
  );
}

function RoleCell({ account, me }: { account: AccountView; me: string }) {
  const t = useTranslations("users");
  const roleName = useTranslations("roles");
  const { busy, error, notice, run } = useUserAction(account.username);
  const [role, setRole] = useState<Role>(account.role);
  if (account.username === me) return <span>{t("you", { role: roleName(account.role) })}</span>;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="sr-only" htmlFor={`role-${account.username}`}>
        {t("roleOf", { username: escapeBidi(account.username) })}
      </label>
      <select
        id={`role-${account.username}`}
        value={role}
        onChange={(e) => setRole(e.target.value as Role)}
        className={inputClass}
      >
        {roles.map((r) => (
          <option key={r} value={r}>
            {roleName(r)}
          </option>
        ))}
      </select>
      {role !== account.role && (
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={busy}
          onClick={() => run("role", role)}
        >
          {t("make", { username: escapeBidi(account.username), role: roleName(role) })}
        </button>
      )}
      {notice && (
        <p role="status" className="w-full text-sm text-slate-700">
          {notice}
        </p>
      )}
      <ErrorBox error={error} className="w-full text-sm" />
    </div>
  );
}
