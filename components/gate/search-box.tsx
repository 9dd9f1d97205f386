"use client";

import { useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { inputClass, primaryButtonClass } from "@/components/ui/class-names";
import { useErrorText } from "@/components/ui/error-text";
import { ErrorBox } from "@/components/ui/states";
import { isConsoleError } from "@/lib/shared/api/errors";
import { normalizeCode } from "@/lib/shared/codes";
import { ScanButton } from "./scan-button";
import { fetchSearch, pageOf, searchKey } from "./search-query";

/** The page of a search's results: what the search box runs its searches through when on it. */
const RESULTS = "/search";

/**
 * The header's one search box, first on every screen: a ticket code, a wristband's NFC / UHF code
 * or an attendee's name, typed or scanned with the camera. A code opens its page; a name lists
 * the tickets found (/search?q=, the answer handed over through the query cache). What was typed
 * stays in the box (on the results page the box shows their query), so "type more to narrow" is
 * typing more. On the results page a new search replaces the results at once (nothing old stays
 * on screen, whether the new one finds something or fails); elsewhere the search runs here and a
 * failure is said under the box. `aside` sits at the end of its row (the alerts bell).
 */
export function SearchBox({ aside }: { aside?: ReactNode }) {
  const t = useTranslations("search");
  const errorText = useErrorText();
  const router = useRouter();
  const pathname = usePathname();
  const shownQuery = useSearchParams().get("q");
  const onResults = pathname === RESULTS;
  const queryClient = useQueryClient();
  const [text, setText] = useState(onResults ? (shownQuery ?? "") : "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // The box says what the results below it are for (a reload, the back button, a link).
  useEffect(() => {
    if (onResults && shownQuery !== null) setText(shownQuery);
  }, [onResults, shownQuery]);
  async function run(value: string) {
    if (!value) return;
    setError(null);
    // A search asked again is asked again: its old answer is dropped, not shown meanwhile.
    queryClient.removeQueries({ queryKey: searchKey(value) });
    if (onResults) {
      router.push(`${RESULTS}?q=${encodeURIComponent(value)}`);
      return;
    }
    setBusy(true);
    try {
      const found = await queryClient.fetchQuery({
        queryKey: searchKey(value),
        queryFn: () => fetchSearch(value),
        retry: false,
      });
      router.push(pageOf(found, value));
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
              onChange={(e) => {
                setText(e.target.value);
                setError(null);
              }}
              placeholder={t("placeholder")}
              // A phone gives the box its whole width; the buttons share the row below.
              className={`${inputClass} min-w-0 flex-1 max-md:basis-full md:w-72 md:flex-none`}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
            />
            <button type="submit" disabled={busy} className={`${primaryButtonClass} max-md:flex-1`}>
              {busy ? t("searching") : t("submit")}
            </button>
            <div className="max-md:flex-1 max-md:[&>button]:w-full">
              <ScanButton
                title={t("scanTitle")}
                onCode={(scanned) => {
                  const code = normalizeCode(scanned);
                  setText(code);
                  void run(code);
                }}
              />
            </div>
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
