import type { ReactNode } from "react";

export function Screen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="p-4 md:p-6">
      <h1 className="mb-4 text-xl font-semibold">{title}</h1>
      {children}
    </section>
  );
}

export function Forbidden() {
  return (
    <Screen title="Not available for your role">
      <p role="alert">Your role does not give access to this screen.</p>
    </Screen>
  );
}

/** What a screen shows until its issue is built. */
export function NotBuiltYet({ title, what }: { title: string; what: string }) {
  return (
    <Screen title={title}>
      <p className="rounded border border-slate-200 bg-white p-4 text-slate-700">
        This screen is not built yet. It will show {what}.
      </p>
    </Screen>
  );
}
