"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { LanguageSwitcher } from "@/components/language-switcher";
import { ThemeSwitcher } from "@/components/theme-switcher";
import { call } from "@/lib/shared/api/call";
import { endpoints } from "@/lib/shared/api/endpoints";
import { isConsoleError } from "@/lib/shared/api/errors";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { can, type Role, screens } from "@/lib/shared/permissions";
import type { Theme } from "@/lib/shared/theme";

/**
 * The screens this role may open. From the tablet width (768 px) up, a column beside the screen;
 * below it, a "Menu" button that shows and hides the list (a disclosure: `aria-expanded`, focus on
 * the first screen when it opens, Escape closes it and returns to the button, and it closes when a
 * screen is chosen), so that the search box comes right after one short bar.
 */
export function Nav({ role, username, theme }: { role: Role; username: string; theme: Theme }) {
  const t = useTranslations();
  const pathname = usePathname();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);

  // A screen was chosen (or the browser went back): the menu has done its job.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => setOpen(false), [pathname]);

  function toggle() {
    const opening = !open;
    setOpen(opening);
    if (opening) requestAnimationFrame(() => list.current?.querySelector<HTMLElement>("a, button")?.focus());
  }
  function closeOnEscape(e: KeyboardEvent) {
    if (e.key !== "Escape" || !open) return;
    setOpen(false);
    button.current?.focus();
  }
  /** Ends this session, or with `everywhere` every session of this user (other browsers too). */
  async function signOut(everywhere = false) {
    // Only an unreachable console keeps the page: any answer, even a refusal, means signed out here.
    await call(everywhere ? endpoints.auth.logoutEverywhere : endpoints.auth.logout, {}).catch((err) => {
      if (isConsoleError(err) && err.status === 0) throw err;
    });
    router.replace("/login");
    router.refresh();
  }
  return (
    <nav
      aria-label={t("nav.label")}
      onKeyDown={closeOnEscape}
      className="border-b border-slate-200 bg-white px-3 py-1 md:w-56 md:border-r md:border-b-0 md:p-3"
    >
      <div className="flex items-center gap-3 md:block">
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls="screens-menu"
          onClick={toggle}
          className="flex min-h-11 items-center gap-2 rounded px-2 text-sm font-medium text-slate-900 hover:bg-slate-100 md:hidden"
        >
          <MenuIcon open={open} />
          {t("nav.menu")}
        </button>
        <p className="min-w-0 truncate text-sm text-slate-600 md:mb-2 md:px-2">
          {t.rich("nav.signedInAs", {
            username: escapeBidi(username),
            role: t(`roles.${role}`),
            // The username is data (marked so), not words of the console.
            name: (chunks) => (
              <bdi translate="no" className="font-medium text-slate-900">
                {chunks}
              </bdi>
            ),
          })}
        </p>
      </div>
      <div id="screens-menu" ref={list} className={open ? "pb-2" : "hidden md:block"}>
        <ul className="flex flex-col gap-1">
          {screens
            .filter((s) => can(role, s.permission))
            .map((s) => {
              const active = s.href === "/" ? pathname === "/" : pathname.startsWith(s.href);
              return (
                <li key={s.href}>
                  <Link
                    href={s.href}
                    aria-current={active ? "page" : undefined}
                    onClick={() => setOpen(false)}
                    className={`flex items-center rounded px-2 py-1.5 text-sm max-md:min-h-11 ${active ? "bg-blue-700 text-white" : "text-slate-800 hover:bg-slate-100"}`}
                  >
                    {t(`screens.${s.key}`)}
                  </Link>
                </li>
              );
            })}
        </ul>
        <button
          type="button"
          onClick={() => signOut()}
          className="mt-4 w-full rounded px-2 py-1.5 text-left text-sm text-slate-700 hover:bg-slate-100 max-md:min-h-11"
        >
          {t("nav.signOut")}
        </button>
        <button
          type="button"
          onClick={() => signOut(true)}
          className="w-full rounded px-2 py-1.5 text-left text-sm text-slate-700 hover:bg-slate-100 max-md:min-h-11"
        >
          {t("nav.signOutEverywhere")}
        </button>
        <LanguageSwitcher className="mt-4 px-2" />
        <ThemeSwitcher theme={theme} className="mt-2 px-2" />
      </div>
    </nav>
  );
}

/** Three bars, or a cross while the menu is open; decorative (the button says "Menu"). */
function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="size-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5h14M3 10h14M3 15h14" />}
    </svg>
  );
}
