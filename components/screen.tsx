import type { ReactNode } from "react";

export function Screen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="p-4 md:p-6">
      <h1 className="mb-4 text-xl font-semibold">{title}</h1>
      {children}
    </section>
  );
}

/**
 * @deprecated Never shown any more: `pageUser` sends a role that may not open a screen to its home
 * with a notice. Kept only until the pages written before that are merged; then remove it.
 */
export function Forbidden() {
  return (
    <Screen title="Not available for your role">
      <p role="alert">Your role does not give access to this screen.</p>
    </Screen>
  );
}
