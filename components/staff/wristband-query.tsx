"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { Field } from "@/components/ui/fields";
import { fetchJson } from "@/lib/shared/api/client";
import { type Wristband, WristbandView } from "@/lib/shared/api/staff";

/** A wristband with its event's currency and zone, read live by code (the desk and the lookup). */
export function useWristband(code: string) {
  return useQuery({
    queryKey: ["wristband", code],
    queryFn: () => fetchJson(`/api/wristbands/${encodeURIComponent(code)}`, WristbandView),
  });
}

/** The paid and the promo balance of a wristband, apart (only the paid one is ever refunded). */
export function BalanceFields({
  wristband,
  money,
  testIdPrefix = "",
}: {
  wristband: Wristband;
  money: (minor: number) => string;
  /** Prefix of the values' test ids ("desk-" on the desk). */
  testIdPrefix?: string;
}) {
  const t = useTranslations("wristband");
  return (
    <>
      <Field label={t("paidBalance")}>
        <span data-testid={`${testIdPrefix}paid-balance`}>{money(wristband.balance)}</span>
      </Field>
      <Field label={t("promoBalance")}>
        <span data-testid={`${testIdPrefix}promo-balance`}>{money(wristband.promo_balance)}</span>
      </Field>
    </>
  );
}
