"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { can, type Role, screens } from "@/lib/permissions";

export function Nav({ role, username }: { role: Role; username: string }) {
  const pathname = usePathname();
  const router = useRouter();
  async function signOut() {
    await fetch("/api/auth/logout", { method: "POST" });
    router.replace("/login");
    router.refresh();
  }
  return (
    <nav aria-label="Screens" className="flex flex-col gap-1 border-r border-slate-200 bg-white p-3 md:w-56">
      <p className="mb-2 px-2 text-sm text-slate-600">
        Signed in as <span className="font-medium text-slate-900">{username}</span> ({role})
      </p>
      <ul className="flex flex-wrap gap-1 md:flex-col">
        {screens
          .filter((s) => can(role, s.permission))
          .map((s) => {
            const active = s.href === "/" ? pathname === "/" : pathname.startsWith(s.href);
            return (
              <li key={s.href}>
                <Link
                  href={s.href}
                  aria-current={active ? "page" : undefined}
                  className={`block rounded px-2 py-1.5 text-sm ${active ? "bg-blue-700 text-white" : "text-slate-800 hover:bg-slate-100"}`}
                >
                  {s.label}
                </Link>
              </li>
            );
          })}
      </ul>
      <button
        type="button"
        onClick={signOut}
        className="mt-4 rounded px-2 py-1.5 text-left text-sm text-slate-700 hover:bg-slate-100"
      >
        Sign out
      </button>
    </nav>
  );
}
