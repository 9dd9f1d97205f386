"use client";

import { useTranslations } from "next-intl";

/** What a terminal's late records moved, per night ("20 late records, €140.00 into Day 2"). */
export function BurstNote({
  burst,
  days,
  money,
}: {
  burst: { day_id: string; records: number; money: number }[];
  days: { id: string; name: string }[];
  money: (minor: number) => string;
}) {
  const t = useTranslations("terminals");
  if (burst.length === 0) return null;
  return (
    <ul className="mt-1 text-xs text-slate-700" data-testid="burst">
      {burst.map((b) => (
        <li key={b.day_id}>
          {t("burst", {
            records: b.records,
            money: money(b.money),
            night: days.find((d) => d.id === b.day_id)?.name ?? b.day_id,
          })}
        </li>
      ))}
    </ul>
  );
}
