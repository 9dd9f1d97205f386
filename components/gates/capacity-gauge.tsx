"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { inputClass, secondaryButtonClass } from "@/components/ui/class-names";
import { useIntlLocale } from "@/components/ui/locale-format";
import { ErrorBox } from "@/components/ui/states";
import { keyOf, useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { EntriesView } from "@/lib/shared/api/gates";
import { formatCount } from "@/lib/shared/format/number";

type Zone = EntriesView["zones"][number];

/** The colour of a gauge: past the first threshold amber, past the last red. */
function tone(percent: number, thresholds: number[]) {
  const sorted = [...thresholds].sort((a, b) => a - b);
  if (percent >= (sorted[sorted.length - 1] ?? 100)) return "bg-red-600";
  if (percent >= (sorted[0] ?? 80)) return "bg-amber-500";
  return "bg-emerald-600";
}

/** One zone: entered today against its capacity, as a meter; a manager sets the capacity here. */
export function CapacityGauge({
  zone,
  thresholds,
  canManage,
}: {
  zone: Zone;
  thresholds: number[];
  canManage: boolean;
}) {
  const t = useTranslations("gates");
  const locale = useIntlLocale();
  const percent = zone.percent;
  return (
    <li className="rounded border border-slate-200 bg-white p-3" data-testid={`zone-${zone.zone_id}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-medium [overflow-wrap:anywhere]">{zone.name}</h3>
        <span className="text-sm tabular-nums" data-testid="zone-entered">
          {zone.capacity === null
            ? t("enteredNoCapacity", { entered: formatCount(zone.entered, locale) })
            : t("enteredOfCapacity", {
                entered: formatCount(zone.entered, locale),
                capacity: formatCount(zone.capacity, locale),
                percent: percent ?? 0,
              })}
        </span>
      </div>
      {percent !== null && (
        <>
          <meter
            className="sr-only"
            aria-label={t("gaugeLabel", { zone: zone.name })}
            min={0}
            max={100}
            value={Math.min(100, percent)}
            data-testid="zone-gauge"
          >
            {percent} %
          </meter>
          <div aria-hidden="true" className="mt-2 h-3 w-full overflow-hidden rounded bg-slate-100">
            <div
              className={`h-full ${tone(percent, thresholds)}`}
              style={{ width: `${Math.min(100, percent)}%` }}
            />
          </div>
        </>
      )}
      <p className="mt-1 text-xs text-slate-500">
        {t("zoneEntries", {
          today: formatCount(zone.entries_today, locale),
          recent: formatCount(zone.entries_15_min, locale),
        })}
      </p>
      {canManage && <CapacityForm zone={zone} />}
    </li>
  );
}

function CapacityForm({ zone }: { zone: Zone }) {
  const t = useTranslations("gates");
  const client = useQueryClient();
  const [value, setValue] = useState(zone.capacity === null ? "" : String(zone.capacity));
  const save = useWrite(endpoints.gates.capacity, {
    onSuccess: () => void client.invalidateQueries({ queryKey: keyOf(endpoints.gates.entries) }),
  });
  const id = `capacity-${zone.zone_id}`;
  return (
    <form
      className="mt-2 flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const n = value.trim() === "" ? null : Number(value);
        save.mutate({ body: { zone_id: zone.zone_id, capacity: n } });
      }}
    >
      <label htmlFor={id} className="text-sm">
        {t("capacityLabel", { zone: zone.name })}
      </label>
      <input
        id={id}
        className={`${inputClass} w-28`}
        inputMode="numeric"
        pattern="[0-9]*"
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit" className={secondaryButtonClass} disabled={save.isPending}>
        {t("saveCapacity")}
      </button>
      {save.isSuccess && <span role="status">{t("capacitySaved")}</span>}
      <ErrorBox error={save.error} />
    </form>
  );
}
