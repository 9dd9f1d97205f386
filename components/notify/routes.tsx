"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { inputClass, primaryButtonClass, toolButtonClass } from "@/components/ui/class-names";
import { Panel } from "@/components/ui/panel";
import { Empty, ErrorBox } from "@/components/ui/states";
import { keyOf, useWrite } from "@/components/ui/use-endpoint";
import { alertKinds, alertSeverities } from "@/lib/shared/api/attention";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { NotifySettings, Route } from "@/lib/shared/api/notify";
import { roles } from "@/lib/shared/permissions";

const clock = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
const text = (v: FormDataEntryValue | null) => (typeof v === "string" ? v.trim() : "");
const minutes = (v: FormDataEntryValue | null) => (text(v) === "" ? null : Number(text(v)));

/** The routes: which alerts go to whom, grouped, quiet, reminded and escalated; a form to add one. */
export function Routes({ settings }: { settings: NotifySettings }) {
  const t = useTranslations("notify");
  const ta = useTranslations("alerts");
  const roleName = useTranslations("roles");
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: keyOf(endpoints.notify.settings) });
  const remove = useWrite(endpoints.notify.removeRoute, { onSuccess: refresh });
  const add = useWrite(endpoints.notify.addRoute, { onSuccess: refresh });
  const contactName = (id: string) => settings.contacts.find((c) => c.id === id)?.name ?? id;
  const summaryOf = (r: Route) =>
    t("routeSummary", {
      kind: r.kind ? ta(`kind.${r.kind}`) : t("everyKind"),
      severity: ta(`severity.${r.min_severity}`),
      targets: [...r.contact_ids.map(contactName), ...r.roles.map((x) => roleName(x))].join(", "),
    });
  return (
    <Panel title={t("routesHeading")} id="notify-routes">
      {settings.routes.length === 0 ? (
        <Empty>{t("noRoutes")}</Empty>
      ) : (
        <ul className="divide-y divide-slate-200">
          {settings.routes.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-2 py-2" data-testid="route">
              <span className="min-w-0 [overflow-wrap:anywhere]">
                <span className="font-medium">{summaryOf(r)}</span>
                <span className="block text-xs text-slate-600">
                  {t("routeDetails", {
                    window: r.group_window_s,
                    quiet:
                      r.quiet_from === null || r.quiet_to === null
                        ? "none"
                        : `${clock(r.quiet_from)}–${clock(r.quiet_to)}`,
                    remind: r.remind_after_min === null ? "none" : String(r.remind_after_min),
                    escalate:
                      r.escalate_to === null
                        ? "none"
                        : `${contactName(r.escalate_to)} (${r.escalate_after_min} min)`,
                  })}
                </span>
              </span>
              <button
                type="button"
                className={`${toolButtonClass} ml-auto`}
                onClick={() => remove.mutate({ params: { id: r.id } })}
              >
                {t("remove")}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorBox error={remove.error} />
      <form
        className="mt-4 grid gap-2 sm:grid-cols-2"
        aria-label={t("addRoute")}
        onSubmit={async (e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          const kind = alertKinds.find((k) => k === data.get("kind")) ?? null;
          const done = await add.send({
            body: {
              kind,
              min_severity: alertSeverities.find((s) => s === data.get("min_severity")) ?? "info",
              contact_ids: data.getAll("contact").map(String),
              roles: roles.filter((r) => data.getAll("role").includes(r)),
              group_window_s: Number(text(data.get("group_window_s")) || 0),
              quiet_from: text(data.get("quiet_from")) || null,
              quiet_to: text(data.get("quiet_to")) || null,
              remind_after_min: minutes(data.get("remind_after_min")),
              escalate_after_min: minutes(data.get("escalate_after_min")),
              escalate_to: text(data.get("escalate_to")) || null,
            },
          });
          if (done) form.reset();
        }}
      >
        <h3 className="font-medium sm:col-span-2">{t("addRoute")}</h3>
        <label className="grid gap-1 text-sm">
          {t("kind")}
          <select name="kind" className={inputClass} defaultValue="">
            <option value="">{t("everyKind")}</option>
            {alertKinds.map((k) => (
              <option key={k} value={k}>
                {ta(`kind.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          {t("minSeverity")}
          <select name="min_severity" className={inputClass} defaultValue="info">
            {alertSeverities.map((s) => (
              <option key={s} value={s}>
                {ta(`severity.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="text-sm">
          <legend>{t("contacts")}</legend>
          {settings.contacts.map((c) => (
            <label key={c.id} className="mr-3 inline-flex items-center gap-1 max-md:min-h-11">
              <input type="checkbox" name="contact" value={c.id} /> {c.name}
            </label>
          ))}
        </fieldset>
        <fieldset className="text-sm">
          <legend>{t("roles")}</legend>
          {roles.map((r) => (
            <label key={r} className="mr-3 inline-flex items-center gap-1 max-md:min-h-11">
              <input type="checkbox" name="role" value={r} /> {roleName(r)}
            </label>
          ))}
        </fieldset>
        <label className="grid gap-1 text-sm">
          {t("groupWindow")}
          <input
            name="group_window_s"
            type="number"
            min={0}
            max={3600}
            defaultValue={60}
            className={inputClass}
          />
        </label>
        <span className="grid min-w-0 grid-cols-2 gap-2">
          <label className="grid min-w-0 gap-1 text-sm">
            {t("quietFrom")}
            <input
              name="quiet_from"
              pattern="[0-2][0-9]:[0-5][0-9]"
              placeholder="23:00"
              className={`${inputClass} w-full min-w-0`}
            />
          </label>
          <label className="grid min-w-0 gap-1 text-sm">
            {t("quietTo")}
            <input
              name="quiet_to"
              pattern="[0-2][0-9]:[0-5][0-9]"
              placeholder="07:00"
              className={`${inputClass} w-full min-w-0`}
            />
          </label>
        </span>
        <label className="grid gap-1 text-sm">
          {t("remindAfter")}
          <input name="remind_after_min" type="number" min={1} max={1440} className={inputClass} />
        </label>
        <label className="grid gap-1 text-sm">
          {t("escalateAfter")}
          <input name="escalate_after_min" type="number" min={1} max={1440} className={inputClass} />
        </label>
        <label className="grid gap-1 text-sm">
          {t("escalateTo")}
          <select name="escalate_to" className={inputClass} defaultValue="">
            <option value="">{t("nobody")}</option>
            {settings.contacts.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <div className="sm:col-span-2">
          <button type="submit" className={primaryButtonClass} disabled={add.isPending}>
            {t("add")}
          </button>
        </div>
        <ErrorBox error={add.error} className="sm:col-span-2" />
      </form>
    </Panel>
  );
}
