"use client";

import type { ReactElement } from "react";
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { hourLabels } from "@/lib/shared/format/time";

/** The colours of the charts: one meaning, one colour, on every screen. */
export const chartColors = {
  current: "#1d4ed8",
  previous: "#64748b",
  forecast: "#7c3aed",
  topups: "#15803d",
  withdrawals: "#b91c1c",
  allowed: "#15803d",
  denied: "#b91c1c",
  palette: ["#1d4ed8", "#15803d", "#b45309", "#7c3aed", "#0e7490", "#be123c", "#4d7c0f", "#334155"],
};

/** The i-th colour of the palette (zones, payment methods), starting over after the last. */
export function paletteColor(i: number): string {
  return chartColors.palette[i % chartColors.palette.length] as string;
}

/** A tooltip's value through the axis formatter (money); what is not a number is shown as it is. */
export function tooltipValue(format: (value: number) => string) {
  return (value: unknown) => (typeof value === "number" ? format(value) : String(value ?? "—"));
}

/**
 * The x-axis labels of an hourly chart: "HH:mm" in the event's zone, with the UTC offset where a
 * daylight-saving change repeats an hour.
 */
export function hourTickLabels(points: { hour: string }[], timeZone: string): string[] {
  return hourLabels(
    points.map((p) => p.hour),
    timeZone,
  );
}

/**
 * A chart as a figure named by `label`, sized by its box (ResponsiveContainer). The chart itself
 * is focusable (recharts' keyboard layer); its figures go in a DataTable beside it.
 */
export function ChartFrame({
  label,
  height = 260,
  children,
}: {
  label: string;
  /** Pixels, or a CSS height ("100%": the box it is given, as on the wall). */
  height?: number | string;
  children: ReactElement;
}) {
  return (
    <figure aria-label={label} className="w-full" style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </figure>
  );
}

/** One series of a SeriesChart: bars (stacked when they share `stack`) or a line. */
export interface Series {
  key: string;
  name: string;
  color: string;
  line?: boolean;
  /** A line drawn dashed (a projection rather than a measure). */
  dashed?: boolean;
  stack?: string;
}

/**
 * Bars and lines over labelled points (`label` of each datum: an hour, a day), with the console's
 * grid, axes and tooltip. With `format` the values are money (axis and tooltip through it);
 * without, they are counts (whole ticks). `hourly` keeps the first and last hour labels.
 */
export function SeriesChart({
  label,
  data,
  series,
  format,
  hourly = false,
  legend = false,
  height,
  fontSize = 12,
  animate = true,
  xInterval,
}: {
  label: string;
  data: ({ label: string | undefined } & Record<string, unknown>)[];
  series: Series[];
  format?: (value: number) => string;
  hourly?: boolean;
  legend?: boolean;
  height?: number | string;
  /** Of the axes' labels, in pixels (the wall's are read from three metres). */
  fontSize?: number;
  /**
   * Off on the wall: a chart redrawn every poll for days should not animate each time. Elsewhere
   * recharts' "auto": no animation for a person whose system asks for reduced motion (WCAG 2.3.3).
   */
  animate?: boolean;
  /** Labels of the x-axis skipped between two shown (recharts' own choice when not given). */
  xInterval?: number;
}) {
  const scale = fontSize / 12;
  const motion = animate ? ("auto" as const) : false;
  // The axes' labels take the text colour (readable in both themes), not recharts' fixed grey.
  const tick = { fill: "currentColor", fontSize };
  return (
    <ChartFrame label={label} height={height}>
      <ComposedChart title={label} data={data} margin={{ left: format ? 16 : 8, right: 8 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey="label"
          fontSize={fontSize}
          tick={tick}
          {...(xInterval !== undefined
            ? { interval: xInterval }
            : hourly
              ? { interval: "preserveStartEnd" as const }
              : {})}
        />
        {format ? (
          <YAxis
            tickFormatter={(v: number) => format(v)}
            width={80 * scale}
            fontSize={fontSize}
            tick={tick}
          />
        ) : (
          <YAxis allowDecimals={false} fontSize={fontSize} tick={tick} width={60 * scale} />
        )}
        <Tooltip {...(format ? { formatter: tooltipValue(format) } : {})} />
        {legend && <Legend wrapperStyle={{ fontSize }} />}
        {series.map((s) =>
          s.line ? (
            <Line
              key={s.key}
              dataKey={s.key}
              name={s.name}
              stroke={s.color}
              strokeWidth={2}
              dot={false}
              type="monotone"
              isAnimationActive={motion}
              {...(s.dashed ? { strokeDasharray: "6 4", connectNulls: false } : {})}
            />
          ) : (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.name}
              fill={s.color}
              isAnimationActive={motion}
              {...(s.stack ? { stackId: s.stack } : {})}
            />
          ),
        )}
      </ComposedChart>
    </ChartFrame>
  );
}
