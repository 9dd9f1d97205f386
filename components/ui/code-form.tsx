"use client";

import { type FormEvent, useState } from "react";
import { inputClass, primaryButtonClass } from "@/components/ui/class-names";
import { normalizeCode } from "@/lib/shared/codes";

/**
 * A code typed or scanned, then submitted, normalised the one way (`normalizeCode`: spaces and
 * scanner suffixes dropped, the ticket prefix's dash and NFC hex pairs mended); an empty code
 * submits nothing. The lookup screens and the desk use it.
 */
export function CodeForm({
  label,
  submitLabel,
  onCode,
}: {
  label: string;
  submitLabel: string;
  onCode: (code: string) => void;
}) {
  const [code, setCode] = useState("");
  function submit(e: FormEvent) {
    e.preventDefault();
    const normalized = normalizeCode(code);
    if (normalized) onCode(normalized);
  }
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <label className="flex flex-col text-sm">
        {label}
        <input
          value={code}
          onChange={(e) => setCode(e.target.value)}
          className={inputClass}
          autoComplete="off"
        />
      </label>
      <button type="submit" className={primaryButtonClass}>
        {submitLabel}
      </button>
    </form>
  );
}
