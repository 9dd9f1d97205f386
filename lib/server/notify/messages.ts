import "server-only";
import { createTranslator } from "next-intl";
import type { Alert, AlertFigures } from "@/lib/shared/api/attention";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { formatMoney } from "@/lib/shared/format/money";
import { dateTime } from "@/lib/shared/format/time";
import { intlLocale, type Locale } from "@/lib/shared/i18n/locales";
import { messagesFor } from "@/lib/shared/i18n/messages";

/**
 * What a message says, in the contact point's language: a subject, and per alert its title,
 * its sentence (the words of the /alerts screen), the link to the screen that explains it and,
 * while it is open, the signed link to acknowledge it (which opens the screen after sign-in).
 */

export type Purpose = "opened" | "reminder" | "escalation" | "resolved" | "test";

/** Figures that are money (minor units) or instants, as the alerts screen reads them. */
const MONEY = new Set([
  "sales_delta",
  "topups_delta",
  "withdrawals_delta",
  "upstream_total",
  "mirror_total",
  "lowest",
]);
const INSTANTS = new Set(["signed_at", "paused_until"]);

export interface EventFormat {
  currency: string;
  timeZone: string;
  days: { id: string; name: string }[];
}

export interface MessageAlert {
  id: string;
  kind: string;
  severity: string;
  subject: string;
  state: "open" | "resolved";
  title: string;
  detail: string;
  first_seen: string;
  resolved_at: string | null;
  /** The screen that explains it. */
  link: string;
  /** Signed, expiring; null once resolved. */
  acknowledge_link: string | null;
}

export interface Message {
  purpose: Purpose;
  subject: string;
  /** The whole message as plain text (the e-mail's body, the chat's fallback). */
  text: string;
  alerts: MessageAlert[];
}

export function renderMessage(input: {
  purpose: Purpose;
  alerts: Alert[];
  locale: Locale;
  format: EventFormat;
  baseUrl: string;
  ackLink: (alertId: string) => string;
  contactName: string;
}): Message {
  // A sentence whose figures an alert lacks (or a kind another release added) reads as its name,
  // quietly: a message never fails for its words.
  const t = createTranslator({
    locale: input.locale,
    messages: messagesFor(input.locale),
    onError: () => undefined,
    getMessageFallback: () => "",
  });
  const intl = intlLocale(input.locale);
  const { currency, timeZone, days } = input.format;
  const when = (at: string) => dateTime(at, timeZone, intl);
  const values = (figures: AlertFigures) =>
    Object.fromEntries(
      Object.entries({ normal_from: "today", ...figures }).map(([k, v]) => {
        if (v === null) return [k, "—"];
        if (MONEY.has(k) && typeof v === "number") return [k, formatMoney(v, currency, intl)];
        if (INSTANTS.has(k) && typeof v === "string") return [k, when(v)];
        if (k === "day_id" && typeof v === "string") return [k, days.find((d) => d.id === v)?.name ?? v];
        return [k, typeof v === "string" ? escapeBidi(v) : v];
      }),
    );
  const words = (key: string, fallback: string, v?: Record<string, string | number>) => {
    try {
      return t(key as never, v as never) || fallback;
    } catch {
      return fallback;
    }
  };
  const alerts = input.alerts.map((a): MessageAlert => {
    const subject =
      a.subject === "*" ? t("alerts.overall") : (days.find((d) => d.id === a.subject)?.name ?? a.subject);
    return {
      id: a.id,
      kind: a.kind,
      severity: a.severity,
      subject,
      state: a.state,
      title: words(`alerts.kind.${a.kind}`, a.kind),
      detail: words(`alerts.detail.${a.kind}`, "", values(a.figures)),
      first_seen: a.first_seen,
      resolved_at: a.resolved_at,
      link: new URL(a.link, input.baseUrl).toString(),
      acknowledge_link:
        a.state === "open" && !a.acknowledged_at && input.purpose !== "resolved" ? input.ackLink(a.id) : null,
    };
  });
  const first = alerts[0];
  const subjectLine =
    input.purpose === "test"
      ? t("notify.message.testSubject")
      : t(`notify.message.subject.${input.purpose}`, {
          count: alerts.length,
          title: first ? `${first.title}${first.subject ? ` (${escapeBidi(first.subject)})` : ""}` : "",
        });
  const lines: string[] = [];
  if (input.purpose === "test")
    lines.push(t("notify.message.testBody", { name: escapeBidi(input.contactName) }));
  else lines.push(t(`notify.message.intro.${input.purpose}`, { count: alerts.length }));
  for (const a of alerts) {
    lines.push(
      "",
      `[${t(`alerts.severity.${a.severity as "info"}`)}] ${a.title} — ${escapeBidi(a.subject)}`,
      ...(a.detail ? [a.detail] : []),
      a.resolved_at
        ? t("notify.message.resolvedAt", { time: when(a.resolved_at) })
        : t("notify.message.since", { time: when(a.first_seen) }),
      t("notify.message.explain", { url: a.link }),
      ...(a.acknowledge_link ? [t("notify.message.acknowledge", { url: a.acknowledge_link })] : []),
    );
  }
  return { purpose: input.purpose, subject: subjectLine, text: lines.join("\n"), alerts };
}
