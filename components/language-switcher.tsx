"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import { isLocale, LOCALE_NAMES, LOCALES } from "@/lib/shared/i18n/locales";

/**
 * Picks the console's language: on the sign-in page (kept in this browser's cookie) and in the
 * navigation (signed in, kept with the account too).
 */
export function LanguageSwitcher({ className = "" }: { className?: string }) {
  const t = useTranslations("language");
  const locale = useLocale();
  const router = useRouter();
  const save = useWrite(endpoints.auth.locale, { onSuccess: () => router.refresh() });
  const failed = save.isError;
  function choose(value: string) {
    if (!isLocale(value) || value === locale) return;
    save.mutate({ body: { locale: value } });
  }
  return (
    <div className={className}>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        {t("label")}
        <select
          value={locale}
          onChange={(e) => choose(e.target.value)}
          className="min-h-11 rounded border border-slate-300 bg-white px-2 text-sm text-slate-900 md:min-h-8"
        >
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={l}>
              {LOCALE_NAMES[l]}
            </option>
          ))}
        </select>
      </label>
      {failed && (
        <p role="alert" className="mt-1 text-sm text-red-800">
          {t("failed")}
        </p>
      )}
    </div>
  );
}
