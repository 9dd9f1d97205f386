"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, type ReactNode, useState } from "react";
import { inputClass, primaryButtonClass } from "@/components/ui/class-names";
import { useErrorText } from "@/components/ui/error-text";
import { ErrorBox } from "@/components/ui/states";
import { isConsoleError } from "@/lib/shared/api/errors";
import { ScanButton } from "./scan-button";
import { fetchSearch, pageOf, searchKey } from "./search-query";

/**
 * The header's one search box, first on every screen: a ticket code, a wristband's NFC / UHF code
 * or an attendee's name, typed or scanned with the camera. A code opens its page; a name lists
 * the tickets found (/search?q=, the answer handed over through the query cache). `aside` sits at
 * the end of its row (the alerts bell).
 */
export function SearchBox({ aside }: { aside?: ReactNode }) {
  const t = useTranslations("search");
  const errorText = useErrorText();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function run(value: string) {
    if (!value) return;
    setBusy(true);
    setError(null);
    try {
      const found = await fetchSearch(value);
      queryClient.setQueryData(searchKey(value), found);
      router.push(pageOf(found, value));
      setText("");
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    void run(text.trim());
  }
  return (
    <div className="border-b border-slate-200 bg-white px-3 py-2 md:px-6">
      <div className="flex items-start gap-2">
        <search className="min-w-0 flex-1">
          <form onSubmit={submit} className="flex flex-wrap items-center gap-2">
            <label htmlFor="header-search" className="w-full text-sm font-medium md:w-auto">
              {t("label")}
            </label>
            <input
              id="header-search"
              type="search"
              enterKeyHint="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={t("placeholder")}
              className={`${inputClass} min-w-0 flex-1 md:w-72 md:flex-none`}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
            />
            <button type="submit" disabled={busy} className={primaryButtonClass}>
              {busy ? t("searching") : t("submit")}
            </button>
            <ScanButton
              title={t("scanTitle")}
              onCode={(code) => {
                setText(code);
                void run(code);
              }}
            />
          </form>
        </search>
        {aside}
      </div>
      {error != null && (
        <div className="mt-2">
          {isConsoleError(error) && error.code === "nothing_found" ? (
            <p role="alert" className="rounded border border-amber-200 bg-amber-50 p-2 text-amber-900">
              {errorText(error)}
            </p>
          ) : (
            <ErrorBox error={error} />
          )}
        </div>
      )}
    </div>
  );
}
