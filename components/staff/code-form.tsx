"use client";

import { type FormEvent, useState } from "react";
import { inputClass, primaryButtonClass } from "@/components/ui/class-names";

/** A code typed or scanned, then submitted (trimmed; an empty code submits nothing). */
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
    if (code.trim()) onCode(code.trim());
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
