import type { ReactNode } from "react";

export function Screen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="p-4 md:p-6">
      <h1 className="mb-4 text-xl font-semibold">{title}</h1>
      {children}
    </section>
  );
}
