"use client";

import { useTranslations } from "next-intl";
import { Field } from "@/components/ui/fields";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { Wristband } from "@/lib/shared/api/staff";

/** A wristband with its event's currency and zone, read live by code (the desk and the lookup). */
export function useWristband(code: string) {
  return useEndpoint(endpoints.gate.wristband, { params: { code } });
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
