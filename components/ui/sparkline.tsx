/**
 * A small line of counts (oldest first), as an image whose words the caller gives: a screen reader
 * reads `label` ("records per hour: 3, 8, 12…"), the eye the shape.
 */
export function Sparkline({
  values,
  label,
  className = "",
}: {
  values: number[];
  label: string;
  className?: string;
}) {
  const width = 96;
  const height = 24;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values.map(
    (v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`,
  );
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${width} ${height}`} className={`h-6 w-24 ${className}`}>
      <polyline points={points.join(" ")} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}
