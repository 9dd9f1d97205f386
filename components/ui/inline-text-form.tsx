"use client";

import { useState } from "react";
import { inputClass, secondaryButtonClass } from "./class-names";
import { ErrorBox } from "./states";

/**
 * One labelled line of text and a button that sends it (a comment, a reason), with the sending
 * state and the error of the action: the small forms inside a card or a table cell.
 */
export function InlineTextForm({
  id,
  label,
  submitLabel,
  pending,
  error,
  onSubmit,
  maxLength = 500,
}: {
  id: string;
  label: string;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (text: string) => void;
  maxLength?: number;
}) {
  const [text, setText] = useState("");
  return (
    <form
      className="no-print mt-2 flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(text);
      }}
    >
      <label className="flex min-w-0 max-w-full flex-col text-sm" htmlFor={id}>
        {label}
        <input
          id={id}
          className={`${inputClass} max-w-full`}
          value={text}
          maxLength={maxLength}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <button type="submit" className={secondaryButtonClass} disabled={pending}>
        {submitLabel}
      </button>
      <ErrorBox error={error} />
    </form>
  );
}
