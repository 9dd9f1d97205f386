"use client";

import { DateTime } from "luxon";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { inputClass, joinClasses } from "@/components/ui/class-names";
import { useIntlLocale } from "@/components/ui/locale-format";
import type { GateInfo } from "@/lib/shared/api/gate";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { dateTime } from "@/lib/shared/format/time";
import type { GateContext, GateRef, GateToday, GateVerdict } from "@/lib/shared/gate-verdict";

const ZONE_KEY = "eoc.gate-zone";

/**
 * The zone this gate stands at (the main entrance, the VIP lounge…): chosen on the device and kept
 * by its browser (localStorage), like the desk's name, so every verdict also says whether the zone
 * is allowed. None chosen: zones are not checked. A zone the event no longer has counts as none.
 */
export function useGateZone(zones: readonly GateRef[]): {
  zone: GateRef | null;
  set: (id: string | null) => void;
} {
  const [id, setId] = useState<string | null>(null);
  useEffect(() => {
    setId(window.localStorage.getItem(ZONE_KEY));
  }, []);
  const set = (next: string | null) => {
    if (next) window.localStorage.setItem(ZONE_KEY, next);
    else window.localStorage.removeItem(ZONE_KEY);
    setId(next);
  };
  return { zone: zones.find((z) => z.id === id) ?? null, set };
}

/**
 * The instant the verdicts are judged at: the server's clock as it answered, moved on by the time
 * since, and again every 30 s while the page stays open (a phone's own clock may be wrong).
 */
export function useGateNow(serverNow: string): Date {
  const [offset] = useState(() => Date.parse(serverNow) - Date.now());
  const [now, setNow] = useState(() => new Date(Date.now() + offset));
  useEffect(() => {
    setNow(new Date(Date.now() + offset));
    const timer = setInterval(() => setNow(new Date(Date.now() + offset)), 30_000);
    return () => clearInterval(timer);
  }, [offset]);
  return now;
}

/** The gate's context for a screen's answer: its days and zone, the clock, and this device's zone. */
export function useGateContext(gate: GateInfo): GateContext & { chooseZone: (id: string | null) => void } {
  const now = useGateNow(gate.now);
  const { zone, set } = useGateZone(gate.zones);
  return { days: gate.days, timeZone: gate.timeZone, now, gateZone: zone, chooseZone: set };
}

/** "Zone of this gate": a choice kept on this device. */
export function GateZonePicker({
  zones,
  zone,
  onChange,
}: {
  zones: readonly GateRef[];
  zone: GateRef | null;
  onChange: (id: string | null) => void;
}) {
  const t = useTranslations("gate");
  if (zones.length === 0) return null;
  return (
    <label className="flex max-w-full flex-col text-sm">
      {t("zoneLabel")}
      <select
        value={zone?.id ?? ""}
        onChange={(e) => onChange(e.target.value || null)}
        className={joinClasses(inputClass, "max-w-full md:w-80")}
        aria-describedby="gate-zone-hint"
      >
        <option value="">{t("anyZone")}</option>
        {zones.map((z) => (
          <option key={z.id} value={z.id}>
            {escapeBidi(z.name)}
          </option>
        ))}
      </select>
      <span id="gate-zone-hint" className="mt-0.5 text-xs text-slate-600">
        {t("zoneHint")}
      </span>
    </label>
  );
}

type Tone = "go" | "warn" | "stop";

/** Go (green, a check), warn (amber, a clock: used, waiting for review) or stop (red, a cross). */
function toneOf(v: GateVerdict): Tone {
  if (v.admit) return "go";
  if (v.kind === "used" || v.kind === "pending_review" || v.kind === "days_unknown") return "warn";
  return "stop";
}

const TONE_CLASS: Record<Tone, string> = {
  go: "border-green-700 bg-green-50 text-green-900",
  warn: "border-amber-600 bg-amber-50 text-amber-950",
  stop: "border-red-700 bg-red-50 text-red-900",
};

/** The verdict's headline: what staff read from across the gate. */
function useHeadline(): (v: GateVerdict) => string {
  const t = useTranslations("gate");
  return (v) => {
    if (v.kind === "valid_today") return v.zone?.allowed === false ? t("notThisZone") : t("validToday");
    if (v.kind === "not_valid_today") return t("notValidToday");
    return t(v.kind);
  };
}

function VerdictIcon({ tone, className }: { tone: Tone; className: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <circle cx="12" cy="12" r="10" />
      {tone === "go" && <path d="m7 12.5 3.2 3.2L17 9" />}
      {tone === "warn" && <path d="M12 7v5l3 2" />}
      {tone === "stop" && <path d="m8.5 8.5 7 7m0-7-7 7" />}
    </svg>
  );
}

/** What "today" is, in a sentence. */
function useTodayText(timeZone: string): (today: GateToday) => string {
  const t = useTranslations("gate");
  const locale = useIntlLocale();
  const when = (iso: string) =>
    DateTime.fromISO(iso, { zone: timeZone }).setLocale(locale).toFormat("ccc d LLL HH:mm");
  const time = (iso: string) => DateTime.fromISO(iso, { zone: timeZone }).toFormat("HH:mm");
  return (today) => {
    switch (today.kind) {
      case "open":
        return t("todayOpen", { day: escapeBidi(today.day.name) });
      case "opening":
        return t("todayOpening", { day: escapeBidi(today.day.name), time: time(today.day.starts_at) });
      case "before":
        return t("todayBefore", { day: escapeBidi(today.next.name), when: when(today.next.starts_at) });
      case "between":
        return t("todayBetween", { day: escapeBidi(today.next.name), when: when(today.next.starts_at) });
      case "over":
        return t("todayOver", { day: escapeBidi(today.last.name) });
      default:
        return t("todayNoDays");
    }
  };
}

/** The zone line of a verdict, when this gate has chosen its zone. */
function useZoneText(): (v: GateVerdict) => string | null {
  const t = useTranslations("gate");
  return (v) => {
    if (!v.zone) return null;
    const zone = escapeBidi(v.zone.zone.name);
    if (v.zone.allowed === null) return t("zoneUnknown", { zone });
    return v.zone.allowed ? t("zoneAllowed", { zone }) : t("zoneRefused", { zone });
  };
}

/**
 * The verdict for today, large: colour AND words AND an icon, so it reads at a glance, in sunlight
 * and without colour vision. On the ticket and wristband pages (a scan opens them).
 */
export function VerdictPanel({ verdict, timeZone }: { verdict: GateVerdict; timeZone: string }) {
  const t = useTranslations("gate");
  const locale = useIntlLocale();
  const headline = useHeadline();
  const todayText = useTodayText(timeZone);
  const zoneText = useZoneText()(verdict);
  const tone = toneOf(verdict);
  const days = verdict.validDays.map((d) => escapeBidi(d.name)).join(", ") || t("noDays");
  return (
    <section
      aria-label={t("label")}
      data-testid="verdict"
      data-verdict={verdict.kind}
      data-admit={verdict.admit}
      className={joinClasses("rounded-lg border-2 p-4", TONE_CLASS[tone])}
    >
      <p className="flex items-center gap-3 text-2xl font-bold" data-testid="verdict-headline">
        <VerdictIcon tone={tone} className="size-9 shrink-0" />
        {headline(verdict)}
      </p>
      <div className="mt-2 space-y-0.5 text-sm [overflow-wrap:anywhere]">
        {verdict.kind === "used" && (
          <p>
            {t("usedDetail", {
              when: verdict.checkedInAt ? dateTime(verdict.checkedInAt, timeZone, locale) : t("unknown"),
              wristband: escapeBidi(verdict.wristband ?? t("unknown")),
            })}
          </p>
        )}
        <p data-testid="verdict-days">{t("validOn", { days })}</p>
        <p>{todayText(verdict.today)}</p>
        {zoneText && <p className="font-semibold">{zoneText}</p>}
      </div>
    </section>
  );
}

/** The verdict in a line: a search result's. */
export function VerdictBadge({ verdict }: { verdict: GateVerdict }) {
  const headline = useHeadline();
  const tone = toneOf(verdict);
  return (
    <span
      data-testid="verdict-badge"
      data-verdict={verdict.kind}
      className={joinClasses(
        "inline-flex items-center gap-1 rounded border px-1.5 py-0.5 text-xs font-semibold",
        TONE_CLASS[tone],
      )}
    >
      <VerdictIcon tone={tone} className="size-4 shrink-0" />
      {headline(verdict)}
    </span>
  );
}
