/**
 * Tailwind class names of the console's controls, so that every screen's buttons and inputs look
 * alike. Strings, not components: they go on <button>, <a>, <input> and <select> as they are.
 * Below the tablet width (768 px) every control is at least 44 px high: a finger's target.
 */

/** The main action of a form (Sign off, Check in, Confirm…). */
export const primaryButtonClass =
  "rounded bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-50 max-md:min-h-11";

/** An action that destroys something (Cancel ticket). */
export const dangerButtonClass =
  "rounded bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-50 max-md:min-h-11";

/** A secondary action beside a primary one (Back, Keep it, Resume, amount presets). */
export const secondaryButtonClass =
  "rounded border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50 disabled:opacity-50 max-md:min-h-11";

/** A small outlined tool of a report: pager buttons, Print, Re-sync. */
export const toolButtonClass =
  "rounded border border-slate-300 bg-white px-3 py-1 text-sm enabled:hover:bg-slate-100 disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-blue-700 max-md:min-h-11";

/** A download link that looks like a tool button (Export … as CSV). */
export const downloadLinkClass =
  "inline-flex items-center rounded border border-slate-300 bg-white px-3 py-1 text-sm hover:bg-slate-100 max-md:min-h-11";

/** A text input or a select of a form. */
// text-base on phones: iOS zooms into any input whose text is smaller than 16 px.
export const inputClass =
  "rounded border border-slate-300 px-2 py-1.5 text-sm max-md:min-h-11 max-md:text-base";

/** A link inside text or a table cell (a ticket code, a wristband). */
export const textLinkClass = "text-blue-700 underline";

/** Class names joined by spaces, the empty and the false ones left out. */
export function joinClasses(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}
