"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { SafeText } from "@/components/ui/safe-text";
import { ErrorBox, Loading } from "@/components/ui/states";
import { useTimeText } from "@/components/ui/time-text";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import { escapeBidi } from "@/lib/shared/format/bidi";

const STATUS_CLASS = {
  pending: "text-slate-700",
  sending: "text-slate-700",
  sent: "text-green-800",
  retrying: "text-amber-800",
  failed: "text-red-800",
} as const;

/** An alert's messages (who was told, sent, retrying or failed and why), read when opened. */
export function DeliveryLog({ alertId, timeZone }: { alertId: string; timeZone: string }) {
  const t = useTranslations("notify");
  const [open, setOpen] = useState(false);
  return (
    <details
      className="mt-2 text-sm"
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid="delivery-log"
    >
      <summary className="cursor-pointer text-slate-700 max-md:min-h-11">{t("deliveriesHeading")}</summary>
      {open && <Deliveries alertId={alertId} timeZone={timeZone} />}
    </details>
  );
}

function Deliveries({ alertId, timeZone }: { alertId: string; timeZone: string }) {
  const t = useTranslations("notify");
  const time = useTimeText(timeZone);
  const query = useEndpoint(endpoints.notify.deliveries, { params: { id: alertId } });
  if (query.isPending) return <Loading what={t("deliveriesLoading")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { deliveries } = query.data;
  if (deliveries.length === 0) return <p className="mt-1 text-slate-600">{t("noDeliveries")}</p>;
  return (
    <ul className="mt-1 space-y-1">
      {deliveries.map((d) => (
        <li key={d.id} data-testid="delivery" data-status={d.status} className="[overflow-wrap:anywhere]">
          <span className={STATUS_CLASS[d.status]}>
            {t("delivery", {
              purpose: t(`purpose.${d.purpose}`),
              contact: escapeBidi(d.contact_name),
              status: t(`status.${d.status}`),
            })}
          </span>
          <span className="text-xs text-slate-600">
            {" · "}
            {t("deliveryAttempts", { attempts: d.attempts })}
            {d.alerts > 1 && <> · {t("deliveryGrouped", { count: d.alerts })}</>}
            {d.sent_at && <> · {t("deliverySentAt", { time: time(d.sent_at) })}</>}
            {d.status === "retrying" && <> · {t("deliveryNext", { time: time(d.due_at) })}</>}
          </span>
          {d.last_error && d.status !== "sent" && (
            <span className="block text-xs text-red-800">
              <SafeText text={d.last_error} />
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
