"use client";

import { useTranslations } from "next-intl";
import { LateByTerminalTable } from "@/components/ui/breakdown-tables";
import { DataTable, numeric } from "@/components/ui/data-table";
import { InlineTextForm } from "@/components/ui/inline-text-form";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { NightCompleteness as Completeness, NightReport } from "@/lib/shared/api/night";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { formatCount } from "@/lib/shared/format/number";

type At = (iso: string) => string;

/**
 * Is the night complete (issue 13): each terminal active in it, when it last reached the server,
 * and the terminals the night waits for; a supervisor can waive one (who and why are kept).
 */
export function CompletenessPanel({
  dayId,
  completeness: c,
  mirroring,
  canWaive,
  at,
  onWaived,
}: {
  dayId: string;
  completeness: Completeness;
  /** The night's records are still being mirrored: it cannot be called complete yet. */
  mirroring: boolean;
  canWaive: boolean;
  at: At;
  onWaived: () => void;
}) {
  const t = useTranslations("completeness");
  const locale = useIntlLocale();
  const waiting = c.terminals.filter((x) => x.pending && !x.waiver);
  return (
    <Panel title={t("title")} id="completeness-title">
      <p
        data-testid="night-completeness"
        data-provisional={c.provisional}
        data-mirroring={mirroring}
        className={
          c.provisional || mirroring
            ? "mb-3 rounded border border-amber-300 bg-amber-50 p-3 text-amber-950"
            : "mb-3"
        }
      >
        {c.provisional
          ? t("provisional", {
              count: waiting.length,
              terminals: escapeBidi(waiting.map((x) => x.device_id || t("noTerminal")).join(", ")),
            })
          : mirroring
            ? t("mirroring")
            : t("complete")}
        {c.last_activity && ` ${t("lastActivity", { time: at(c.last_activity) })}`}
      </p>
      <DataTable
        caption={t("caption")}
        hiddenCaption
        columns={[t("terminal"), numeric(t("records")), t("syncedUpTo"), t("lastArrival"), t("state")]}
        rows={c.terminals.map((x) => ({
          key: x.device_id,
          cells: [
            x.device_id || t("noTerminal"),
            formatCount(x.records, locale),
            x.synced_up_to ? at(x.synced_up_to) : "—",
            x.last_arrival ? at(x.last_arrival) : "—",
            <div key="state" data-testid={`night-terminal-${x.device_id}`}>
              {x.waiver
                ? t("waived", {
                    who: escapeBidi(x.waiver.username),
                    reason: escapeBidi(x.waiver.reason),
                    time: at(x.waiver.waived_at),
                  })
                : x.pending
                  ? t("pending")
                  : t("synced")}
              {x.pending && !x.waiver && canWaive && (
                <WaiveForm dayId={dayId} deviceId={x.device_id} onWaived={onWaived} />
              )}
            </div>,
          ],
        }))}
      />
    </Panel>
  );
}

function WaiveForm({ dayId, deviceId, onWaived }: { dayId: string; deviceId: string; onWaived: () => void }) {
  const t = useTranslations("completeness");
  const waive = useWrite(endpoints.night.waive, { onSuccess: onWaived });
  return (
    <InlineTextForm
      id={`waive-${deviceId}`}
      label={t("reason", { device: deviceId })}
      submitLabel={t("waive")}
      pending={waive.isPending}
      error={waive.error}
      onSubmit={(reason) => waive.mutate({ body: { day_id: dayId, device_id: deviceId, reason } })}
    />
  );
}

/** Records that reached the server after the latest sign-off: listed against its frozen snapshot. */
export function AdjustmentsPanel({
  adjustments,
  money,
  at,
}: {
  adjustments: NonNullable<NightReport["adjustments"]>;
  money: (minor: number) => string;
  at: At;
}) {
  const t = useTranslations("completeness");
  if (adjustments.by_device.length === 0) return null;
  return (
    <Panel title={t("adjustmentsTitle")} id="adjustments-title">
      <p className="mb-2 text-sm" data-testid="adjustments">
        {t("adjustments", { time: at(adjustments.signed_at) })}
      </p>
      <LateByTerminalTable
        caption={t("adjustmentsCaption")}
        countLabel={t("records")}
        rows={adjustments.by_device}
        money={money}
        at={at}
      />
    </Panel>
  );
}
