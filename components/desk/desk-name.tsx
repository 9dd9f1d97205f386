"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, useEffect, useState } from "react";
import { inputClass, primaryButtonClass, toolButtonClass } from "@/components/ui/class-names";
import { SafeText } from "@/components/ui/safe-text";
import { DeskName } from "@/lib/shared/api/params";

const STORAGE_KEY = "eoc.desk-name";

/**
 * The desk this browser stands at ("Main entrance desk 2"): chosen when the desk screen first
 * opens, remembered by the browser (localStorage), sent with every top-up and withdrawal as the
 * records' `device_id`, so expected money per desk counts them. `ready` is false until read.
 */
export function useDeskName(): { name: string | null; ready: boolean; set: (name: string | null) => void } {
  const [name, setName] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    setName(stored && DeskName.safeParse(stored).success ? stored : null);
    setReady(true);
  }, []);
  const set = (next: string | null) => {
    if (next) window.localStorage.setItem(STORAGE_KEY, next);
    else window.localStorage.removeItem(STORAGE_KEY);
    setName(next);
  };
  return { name, ready, set };
}

/** "Which desk is this?": asked once per browser, before the first operation. */
export function DeskNamePrompt({ initial, onName }: { initial?: string; onName: (name: string) => void }) {
  const t = useTranslations("deskName");
  const [text, setText] = useState(initial ?? "");
  const [error, setError] = useState<string | null>(null);
  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = DeskName.safeParse(text);
    if (!parsed.success) return setError(deskNameProblem(t, parsed.error.issues[0]!.code));
    onName(parsed.data);
  }
  return (
    <form onSubmit={submit} className="space-y-2 rounded border border-slate-200 bg-white p-4">
      <p className="text-sm">{t("intro")}</p>
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col text-sm">
          {t("label")}
          <input
            value={text}
            onChange={(e) => setText(e.target.value)}
            className={inputClass}
            maxLength={40}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "desk-name-error" : undefined}
          />
        </label>
        <button type="submit" className={primaryButtonClass}>
          {t("use")}
        </button>
      </div>
      {error && (
        <p id="desk-name-error" role="alert" className="text-sm text-red-800">
          {error}
        </p>
      )}
    </form>
  );
}

/** What is wrong with a desk name, by the rule it broke (DeskName in lib/shared/api/params.ts). */
function deskNameProblem(t: ReturnType<typeof useTranslations<"deskName">>, code: string): string {
  if (code === "too_small") return t("required");
  if (code === "too_big") return t("tooLong");
  return t("characters");
}

/** The desk in use, with a way to change it. */
export function DeskNameBar({ name, onChange }: { name: string; onChange: () => void }) {
  const t = useTranslations("deskName");
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="desk-name">
      {t("desk")}{" "}
      <strong>
        <SafeText text={name} />
      </strong>
      <button type="button" className={toolButtonClass} onClick={onChange}>
        {t("change")}
      </button>
    </p>
  );
}
