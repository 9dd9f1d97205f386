/** One headline figure of a report (a <dt>/<dd> pair: put it in a <dl>), with an optional hint below. */
export function Stat({
  label,
  value,
  testId,
  hint,
}: {
  label: string;
  value: string;
  testId?: string;
  hint?: string;
}) {
  return (
    <div className="rounded border border-slate-200 bg-white p-3">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
      {hint && <dd className="text-xs text-slate-500">{hint}</dd>}
    </div>
  );
}
