"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { inputClass, secondaryButtonClass } from "@/components/ui/class-names";
import { Panel } from "@/components/ui/panel";
import { ErrorBox, Loading } from "@/components/ui/states";
import { keyOf, useEndpoint, useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { GateSettings } from "@/lib/shared/api/gates";

type NumberField = "walk_min_s" | "double_swipe_s" | "burst_count" | "burst_window_s";
const NUMBER_FIELDS: NumberField[] = ["walk_min_s", "double_swipe_s", "burst_count", "burst_window_s"];

/** A manager's settings of the misuse rules and the capacity thresholds (per-pair walks stay as they are). */
export function RulesSettings() {
  const t = useTranslations("gates");
  const query = useEndpoint(endpoints.gates.settings, {});
  if (query.isPending) return <Loading what={t("loadingSettings")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  return <SettingsForm initial={query.data} />;
}

function SettingsForm({ initial }: { initial: GateSettings }) {
  const t = useTranslations("gates");
  const client = useQueryClient();
  const [values, setValues] = useState<Record<NumberField, string>>(
    Object.fromEntries(NUMBER_FIELDS.map((f) => [f, String(initial[f])])) as Record<NumberField, string>,
  );
  const [thresholds, setThresholds] = useState(initial.thresholds.join(", "));
  const save = useWrite(endpoints.gates.saveSettings, {
    onSuccess: (data) => {
      client.setQueryData(keyOf(endpoints.gates.settings), data);
      void client.invalidateQueries({ queryKey: keyOf(endpoints.gates.entries) });
    },
  });
  return (
    <Panel title={t("settingsHeading")}>
      <form
        className="grid gap-3 md:grid-cols-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({
            body: {
              ...(Object.fromEntries(NUMBER_FIELDS.map((f) => [f, Number(values[f])])) as Record<
                NumberField,
                number
              >),
              thresholds: thresholds
                .split(/[,\s]+/)
                .filter(Boolean)
                .map(Number),
              pairs: initial.pairs,
            },
          });
        }}
      >
        {NUMBER_FIELDS.map((f) => (
          <label key={f} className="flex flex-col gap-1 text-sm">
            {t(`setting.${f}`)}
            <input
              className={inputClass}
              inputMode="numeric"
              value={values[f]}
              onChange={(e) => setValues({ ...values, [f]: e.target.value })}
            />
          </label>
        ))}
        <label className="flex flex-col gap-1 text-sm">
          {t("setting.thresholds")}
          <input className={inputClass} value={thresholds} onChange={(e) => setThresholds(e.target.value)} />
        </label>
        <div className="flex items-end gap-2">
          <button type="submit" className={secondaryButtonClass} disabled={save.isPending}>
            {t("saveSettings")}
          </button>
          {save.isSuccess && <span role="status">{t("settingsSaved")}</span>}
        </div>
        <ErrorBox error={save.error} className="md:col-span-3" />
      </form>
      {initial.pairs.length > 0 && (
        <p className="mt-2 text-xs text-slate-500">{t("pairsNote", { count: initial.pairs.length })}</p>
      )}
    </Panel>
  );
}
