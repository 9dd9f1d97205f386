"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { secondaryButtonClass } from "@/components/ui/class-names";
import { screens } from "@/lib/shared/permissions";

/**
 * Says why the browser is on this screen when the page it asked for is not this role's: the page
 * guard sent it to its home with `?denied=<that screen's path>`. Dismissing removes the parameter.
 */
export function DeniedNotice() {
  const t = useTranslations();
  const params = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const denied = params.get("denied");
  if (denied === null) return null;
  const screen = screens.find((s) => s.href === denied);
  function dismiss() {
    const rest = new URLSearchParams(params);
    rest.delete("denied");
    router.replace(rest.size ? `${pathname}?${rest}` : pathname);
  }
  return (
    <div
      role="status"
      className="mx-4 mt-4 flex flex-wrap items-center gap-3 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 md:mx-6"
    >
      <p className="min-w-0 flex-1">
        {screen ? t("denied.screen", { screen: t(`screens.${screen.key}`) }) : t("denied.other")}
      </p>
      <button type="button" onClick={dismiss} className={secondaryButtonClass}>
        {t("denied.dismiss")}
      </button>
    </div>
  );
}
