import { type BenchDef, ms, type Row } from "./types";

export interface PageLoad {
  sales: number;
  loads: number;
  chromium: string;
  requests: number;
  transferKb: number;
  ttfb: { p50: number; p95: number };
  domContentLoaded: { p50: number; p95: number };
  load: { p50: number; p95: number };
  figures: { p50: number; p95: number };
}

export const pageLoad: BenchDef = {
  id: "page-load",
  section: "d",
  title: "Overview page load",
  script: "bench/page-load.ts",
  reactServer: true,
  needsBuild: true,
  rows(json, bench) {
    const rows: Row[] = [];
    const r = json as unknown as PageLoad;
    for (const [label, key] of [
      ["TTFB", "ttfb"],
      ["DOMContentLoaded", "domContentLoaded"],
      ["load event", "load"],
      ["figures shown (day-total)", "figures"],
    ] as const)
      rows.push({
        bench,
        metric: `${label} p50 / p95 (${r.loads} loads)`,
        value: `${ms(r[key].p50)} / ${ms(r[key].p95)}`,
        goal: "—",
        status: "info",
      });
    return rows;
  },
  method(json) {
    const page = json as unknown as PageLoad | undefined;
    return page
      ? `\`next start\` of the current build on the dashboard-read store (SYNC=off), Chromium ${page.chromium} (/usr/bin/chromium, headless, through Playwright), signed in once through \`POST /api/auth/login\`. Two warm-up loads, then ${page.loads} loads of \`/\`, each in a fresh browser context (empty cache) holding only the session cookie. From the Navigation Timing entry: TTFB = responseStart, DOMContentLoaded and load = their events' end; "figures shown" = when the "Sales" figure (\`data-testid="day-total"\`) first holds an amount, seen by a MutationObserver installed before any page script. All from the navigation's start. ${page.requests} requests, ${page.transferKb.toFixed(0)} KiB per load.`
      : "Not run.";
  },
};
