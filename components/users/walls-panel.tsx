"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import {
  dangerButtonClass,
  inputClass,
  primaryButtonClass,
  secondaryButtonClass,
} from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { keyOf, useEndpoint, useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { WallView } from "@/lib/shared/api/wall";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { dateTime } from "@/lib/shared/format/time";

/**
 * Walls (managers, on the users screen): issue one for a TV (its link is shown here once, and never
 * again: only its hash is kept), see when each was last on screen, revoke one (its screen signs out
 * at once).
 */
export function WallsPanel() {
  const t = useTranslations("wall.admin");
  const locale = useIntlLocale();
  const query = useEndpoint(endpoints.wall.list, {});
  return (
    <Panel id="walls-heading" title={t("title")}>
      <p className="mb-3 text-sm text-slate-600">{t("intro")}</p>
      <IssueForm />
      {query.isPending ? (
        <Loading what={t("loading")} />
      ) : query.isError ? (
        <ErrorBox error={query.error} />
      ) : (
        <DataTable
          caption={t("caption")}
          hiddenCaption
          columns={[
            t("name"),
            t("issued"),
            t("lastSeen"),
            t("state"),
            { label: t("actions"), hiddenLabel: true },
          ]}
          empty={<Empty plain>{t("none")}</Empty>}
          rows={query.data.walls.map((w) => {
            const at = (instant: string) => dateTime(instant, query.data.timeZone, locale);
            return {
              key: w.id,
              cells: [
                <SafeText key="name" text={w.name} />,
                t("issuedBy", { who: escapeBidi(w.created_by), when: at(w.created_at) }),
                w.last_seen_at ? at(w.last_seen_at) : t("neverSeen"),
                w.revoked_at
                  ? t("revoked", { who: escapeBidi(w.revoked_by ?? ""), when: at(w.revoked_at) })
                  : t("active"),
                <RevokeButton key="revoke" wall={w} />,
              ],
            };
          })}
        />
      )}
    </Panel>
  );
}

function useRefreshWalls() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keyOf(endpoints.wall.list) });
}

function IssueForm() {
  const t = useTranslations("wall.admin");
  const refresh = useRefreshWalls();
  const [name, setName] = useState("");
  const [link, setLink] = useState<{ name: string; url: string } | null>(null);
  const issue = useWrite(endpoints.wall.issue, {
    onSuccess: (answer) => {
      setLink({ name: answer.wall.name, url: `${window.location.origin}${answer.connect_path}` });
      setName("");
      return refresh();
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    setLink(null);
    issue.mutate({ body: { name } });
  }
  return (
    <div className="mb-4 space-y-2">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col text-sm text-slate-700">
          {t("nameLabel")}
          <input
            className={inputClass}
            value={name}
            maxLength={60}
            onChange={(e) => setName(e.target.value)}
            placeholder={t("namePlaceholder")}
          />
        </label>
        <button type="submit" className={primaryButtonClass} disabled={issue.isPending}>
          {t("issue")}
        </button>
      </form>
      <ErrorBox error={issue.error} className="text-sm" />
      {link && (
        <div role="status" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="font-medium">{t("linkOnce", { name: escapeBidi(link.name) })}</p>
          <p className="mt-1 flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-white px-2 py-1 text-slate-900" data-testid="wall-link">
              {link.url}
            </code>
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => navigator.clipboard?.writeText(link.url)}
            >
              {t("copy")}
            </button>
          </p>
        </div>
      )}
    </div>
  );
}

function RevokeButton({ wall }: { wall: WallView }) {
  const t = useTranslations("wall.admin");
  const refresh = useRefreshWalls();
  const revoke = useWrite(endpoints.wall.revoke, { onSuccess: refresh });
  if (wall.revoked_at) return null;
  return (
    <div>
      <button
        type="button"
        className={dangerButtonClass}
        disabled={revoke.isPending}
        onClick={() => revoke.mutate({ params: { id: wall.id } })}
      >
        {t("revoke", { name: escapeBidi(wall.name) })}
      </button>
      <ErrorBox error={revoke.error} className="text-sm" />
    </div>
  );
}
