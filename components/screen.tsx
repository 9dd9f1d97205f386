import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

/** A screen of the console: its title (from the `pages` messages) and its content. */
export async function Screen({ page, children }: { page: string; children: ReactNode }) {
  const t = await getTranslations("pages");
  return (
    <section className="p-4 md:p-6">
      <h1 className="mb-4 text-xl font-semibold">{t(page)}</h1>
      {children}
    </section>
  );
}
