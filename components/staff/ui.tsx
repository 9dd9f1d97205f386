"use client";

import { type ReactNode, useCallback, useState } from "react";
import { BffError, fetchJson } from "@/lib/bff/fetch-json";

/** An error in plain words, with the upstream request id to quote to support. */
export function ErrorBox({ error }: { error: unknown }) {
  const e = error instanceof BffError ? error : null;
  return (
    <p role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-red-800">
      {e ? e.message : "The console cannot be reached. Nothing was lost: try again."}
      {e?.requestId && <span className="ml-2 text-sm">(request {e.requestId})</span>}
    </p>
  );
}

/**
 * The Idempotency-Key of one form: created when the form opens, kept across retries (double
 * click, flaky network), renewed only once the upstream gave a final answer.
 */
export function useIdempotencyKey(): [string, () => void] {
  const [key, setKey] = useState(() => crypto.randomUUID());
  const renew = useCallback(() => setKey(crypto.randomUUID()), []);
  return [key, renew];
}

/** True when the request may not have reached a final answer (retry with the same key). */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof BffError)) return true;
  return error.status >= 500 || error.status === 0 || error.code === "idempotency_key_in_use";
}

/** POST JSON to a route handler. */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  return fetchJson<T>(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-700">{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

export function Card({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  const headingId = id ?? `card-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <section aria-labelledby={headingId} className="rounded border border-slate-200 bg-white p-4">
      <h2 id={headingId} className="mb-3 font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export const button =
  "rounded bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-50";
export const dangerButton =
  "rounded bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-50";
export const secondaryButton =
  "rounded border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50 disabled:opacity-50";
export const input = "rounded border border-slate-300 px-2 py-1.5 text-sm";

export function formatTime(at: string | null | undefined, timeZone = "UTC") {
  if (!at) return "—";
  return new Date(at).toLocaleString("en-GB", { timeZone, hour12: false });
}
