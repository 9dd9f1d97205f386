"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import { isTheme, type Theme, themeClass, themes } from "@/lib/shared/theme";

/**
 * Picks the console's theme in the navigation: the system's, light or dark. Applied at once on this
 * page (the class on <html>), then kept with the account and in this browser's cookie.
 */
export function ThemeSwitcher({ theme, className = "" }: { theme: Theme; className?: string }) {
  const t = useTranslations("theme");
  const router = useRouter();
  const [chosen, setChosen] = useState(theme);
  const save = useWrite(endpoints.theme.choose, { onSuccess: () => router.refresh() });
  function choose(value: string) {
    if (!isTheme(value) || value === chosen) return;
    setChosen(value);
    const root = document.documentElement;
    root.classList.remove("dark", "light");
    const cls = themeClass(value);
    if (cls) root.classList.add(cls);
    save.mutate({ body: { theme: value } });
  }
  return (
    <div className={className}>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        {t("label")}
        <select
          value={chosen}
          onChange={(e) => choose(e.target.value)}
          className="min-h-11 rounded border border-slate-300 bg-white px-2 text-sm text-slate-900 md:min-h-8"
          data-testid="theme-switcher"
        >
          {themes.map((th) => (
            <option key={th} value={th}>
              {t(`choice.${th}`)}
            </option>
          ))}
        </select>
      </label>
      {save.isError && (
        <p role="alert" className="mt-1 text-sm text-red-800">
          {t("failed")}
        </p>
      )}
    </div>
  );
}
