"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { inputClass, primaryButtonClass, toolButtonClass } from "@/components/ui/class-names";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { Empty, ErrorBox } from "@/components/ui/states";
import { keyOf, useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import { type Channel, type ContactPoint, channels, type NotifySettings } from "@/lib/shared/api/notify";
import { roles } from "@/lib/shared/permissions";

/** The contact points: each with "Send a test" and Remove; a form to add one. */
export function ContactPoints({ settings }: { settings: NotifySettings }) {
  const t = useTranslations("notify");
  return (
    <Panel title={t("contactsHeading")} id="notify-contacts">
      {!settings.smtp_configured && <p className="mb-2 text-sm text-amber-800">{t("smtpMissing")}</p>}
      {settings.contacts.length === 0 ? (
        <Empty>{t("noContacts")}</Empty>
      ) : (
        <ul className="divide-y divide-slate-200">
          {settings.contacts.map((c) => (
            <ContactRow key={c.id} contact={c} />
          ))}
        </ul>
      )}
      <AddContact />
    </Panel>
  );
}

function ContactRow({ contact }: { contact: ContactPoint }) {
  const t = useTranslations("notify");
  const roleName = useTranslations("roles");
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: keyOf(endpoints.notify.settings) });
  const test = useWrite(endpoints.notify.testContact);
  const remove = useWrite(endpoints.notify.removeContact, { onSuccess: refresh });
  const outcome = test.data;
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2" data-testid={`contact-${contact.name}`}>
      <span className="font-medium">
        <SafeText text={contact.name} />
      </span>
      <span className="text-sm text-slate-600">
        {t(`channels.${contact.channel}`)} · <SafeText text={contact.shown_target} /> ·{" "}
        {t(`locales.${contact.locale}`)}
        {contact.role && (
          <>
            {" "}
            · {t("role")}: {roleName(contact.role)}
          </>
        )}
      </span>
      <span className="ml-auto flex gap-2">
        <button
          type="button"
          className={toolButtonClass}
          disabled={test.isPending}
          onClick={() => test.mutate({ params: { id: contact.id } })}
        >
          {t("sendTest")}
        </button>
        <button
          type="button"
          className={toolButtonClass}
          disabled={remove.isPending}
          onClick={() => remove.mutate({ params: { id: contact.id } })}
        >
          {t("remove")}
        </button>
      </span>
      {outcome && (
        <p role="status" className="w-full text-sm" data-testid="test-outcome">
          {outcome.status === "sent"
            ? t("testSent", { name: contact.name })
            : t("testFailed", { name: contact.name, reason: outcome.last_error ?? "" })}
        </p>
      )}
      <ErrorBox error={test.error ?? remove.error} className="w-full" />
    </li>
  );
}

function AddContact() {
  const t = useTranslations("notify");
  const roleName = useTranslations("roles");
  const client = useQueryClient();
  const [channel, setChannel] = useState<Channel>("email");
  const add = useWrite(endpoints.notify.addContact, {
    onSuccess: () => client.invalidateQueries({ queryKey: keyOf(endpoints.notify.settings) }),
  });
  return (
    <form
      className="mt-4 grid gap-2 sm:grid-cols-2"
      aria-label={t("addContact")}
      onSubmit={async (e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        const role = String(data.get("role") ?? "");
        const done = await add.send({
          body: {
            name: String(data.get("name") ?? ""),
            channel,
            target: String(data.get("target") ?? ""),
            locale: data.get("locale") === "es" ? "es" : "en",
            role: roles.find((r) => r === role) ?? null,
          },
        });
        if (done) {
          form.reset();
          setChannel("email");
        }
      }}
    >
      <h3 className="font-medium sm:col-span-2">{t("addContact")}</h3>
      <label className="grid gap-1 text-sm">
        {t("name")}
        <input name="name" required maxLength={80} className={inputClass} />
      </label>
      <label className="grid gap-1 text-sm">
        {t("channel")}
        <select
          name="channel"
          className={inputClass}
          value={channel}
          onChange={(e) => setChannel(channels.find((c) => c === e.target.value) ?? "email")}
        >
          {channels.map((c) => (
            <option key={c} value={c}>
              {t(`channels.${c}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="grid gap-1 text-sm sm:col-span-2">
        {t("target")}
        <input
          name="target"
          required
          type={channel === "email" ? "email" : "url"}
          autoComplete="off"
          className={inputClass}
        />
        {channel !== "email" && <span className="text-xs text-slate-600">{t("targetHelp")}</span>}
      </label>
      <label className="grid gap-1 text-sm">
        {t("locale")}
        <select name="locale" className={inputClass} defaultValue="en">
          <option value="en">{t("locales.en")}</option>
          <option value="es">{t("locales.es")}</option>
        </select>
      </label>
      <label className="grid gap-1 text-sm">
        {t("role")}
        <select name="role" className={inputClass} defaultValue="">
          <option value="">{t("noRole")}</option>
          {roles.map((r) => (
            <option key={r} value={r}>
              {roleName(r)}
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
  );
}
