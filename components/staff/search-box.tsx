"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { BffError, fetchJson } from "@/lib/bff/fetch-json";
import type { SearchResult } from "@/lib/bff/staff";
import { button, ErrorBox, input } from "./ui";

/** The header's one search box: a ticket code, or a wristband's NFC / UHF code. */
export function SearchBox() {
  const router = useRouter();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const value = code.trim();
    if (!value) return;
    setBusy(true);
    setError(null);
    try {
      const found = await fetchJson<SearchResult>(`/api/staff/search?code=${encodeURIComponent(value)}`);
      router.push(`/${found.kind === "ticket" ? "tickets" : "wristbands"}/${encodeURIComponent(found.code)}`);
      setCode("");
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="border-b border-slate-200 bg-white px-4 py-2 md:px-6">
      <search>
        <form onSubmit={submit} className="flex flex-wrap items-center gap-2">
          <label htmlFor="header-search" className="text-sm font-medium">
            Find a code
          </label>
          <input
            id="header-search"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder="Ticket code, NFC or UHF"
            className={`${input} w-64`}
            autoComplete="off"
          />
          <button type="submit" disabled={busy} className={button}>
            {busy ? "Searching…" : "Search"}
          </button>
        </form>
      </search>
      {error != null && (
        <div className="mt-2">
          {error instanceof BffError && error.code === "nothing_found" ? (
            <p role="alert" className="rounded border border-amber-200 bg-amber-50 p-2 text-amber-900">
              {error.message}
            </p>
          ) : (
            <ErrorBox error={error} />
          )}
        </div>
      )}
    </div>
  );
}
