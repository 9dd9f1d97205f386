/**
 * bench/page-load: the overview page (`/`) loaded in Chromium from `next start` on the dashboard
 * store of bench/dashboard-read (1,000,000 mirrored sales).
 *
 *   npm run bench:page-load           (BENCH_PAGE_LOADS=20, BENCH_PAGE_PORT: first free of 3820-3899)
 *
 * Builds the dashboard first when there is no `.next` build. Signs in once (POST /api/auth/login as
 * the bench manager), then loads `/` BENCH_PAGE_LOADS times, each in a fresh browser context (empty
 * cache) holding only the session cookie, after two warm-up loads that are not counted. Per load,
 * from the navigation's start: TTFB (responseStart), DOMContentLoaded and load (their events' end)
 * from the Navigation Timing entry, and "figures shown": when the overview's "Sales" figure
 * (`data-testid="day-total"`) is in the page with an amount, seen by a MutationObserver installed
 * before any page script runs. Prints p50/p95 of each.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";
import { freePort } from "@/integration-api/testing/api-process";
import { NEXT_BIN, nextEnv } from "../scripts/next-process";
import { startBenchServer } from "./bench-server";
import { count, DATA_DIR, ensureBenchUser, openBenchDashboardStore } from "./dashboard-store";

const LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 20);
const WARMUP = 2;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

interface Load {
  ttfb: number;
  domContentLoaded: number;
  load: number;
  figures: number;
  requests: number;
  transferKb: number;
}

declare global {
  interface Window {
    __figuresAt?: number;
  }
}

/** Records in window.__figuresAt when the "Sales" figure first holds an amount. */
const FIGURES_OBSERVER = `
  new MutationObserver((_, observer) => {
    const el = document.querySelector('[data-testid="day-total"]');
    if (el && /\\d/.test(el.textContent || "")) {
      window.__figuresAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
`;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

async function main() {
  if (!existsSync(".next/BUILD_ID")) {
    console.log("No .next build: building the dashboard (next build)…");
    const built = spawnSync(process.execPath, [NEXT_BIN, "build"], { stdio: "inherit", env: nextEnv() });
    if (built.status !== 0) throw new Error("next build failed");
  }
  const db = await openBenchDashboardStore();
  const sales = await count(db, "m_sales");
  await ensureBenchUser(db);
  await db.close();

  const port = Number(process.env.BENCH_PAGE_PORT ?? (await freePort(3820, 3899)));
  const server = await startBenchServer(DATA_DIR, port);
  const base = server.base;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  try {
    const cookies = server.cookies.map((c) => ({ ...c, url: base }));

    const loadOnce = async (): Promise<Load> => {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      try {
        await context.addCookies(cookies);
        // A string, not a function: tsx would wrap named functions in a helper the page lacks.
        await context.addInitScript(FIGURES_OBSERVER);
        const page = await context.newPage();
        const response = await page.goto(`${base}/`, { waitUntil: "load" });
        if (!response?.ok() || new URL(page.url()).pathname !== "/")
          throw new Error(`/ answered ${response?.status()} at ${page.url()}`);
        await page
          .waitForFunction(() => window.__figuresAt !== undefined, undefined, { timeout: 60_000 })
          .catch(async (err) => {
            const text = (await page.textContent("main").catch(() => null))?.slice(0, 400);
            throw new Error(`the overview's figures did not show within 60 s; the page says: ${text}`, {
              cause: err,
            });
          });
        return await page.evaluate(() => {
          const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
          const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
          return {
            ttfb: nav.responseStart,
            domContentLoaded: nav.domContentLoadedEventEnd,
            load: nav.loadEventEnd,
            figures: window.__figuresAt ?? Number.NaN,
            requests: 1 + resources.length,
            transferKb: (nav.transferSize + resources.reduce((s, r) => s + r.transferSize, 0)) / 1024,
          };
        });
      } finally {
        await context.close();
      }
    };

    console.log(
      `Overview (/) on ${sales.toLocaleString("en")} mirrored sales, next start on ${base}, Chromium ${browser.version()}: ${WARMUP} warm-up loads, then ${LOADS} measured (fresh context each)`,
    );
    for (let i = 0; i < WARMUP; i++) await loadOnce();
    const loads: Load[] = [];
    for (let i = 0; i < LOADS; i++) loads.push(await loadOnce());

    const metrics = [
      ["TTFB", "ttfb"],
      ["DOMContentLoaded", "domContentLoaded"],
      ["load", "load"],
      ["figures shown (day-total)", "figures"],
    ] as const;
    console.log(
      `${"metric (ms from navigation start)".padEnd(36)} ${"p50".padStart(8)} ${"p95".padStart(8)}`,
    );
    const summary: Record<string, { p50: number; p95: number }> = {};
    for (const [label, key] of metrics) {
      const values = loads.map((l) => l[key]);
      summary[key] = { p50: pct(values, 50), p95: pct(values, 95) };
      console.log(
        `${label.padEnd(36)} ${summary[key].p50.toFixed(0).padStart(8)} ${summary[key].p95.toFixed(0).padStart(8)}`,
      );
    }
    const requests = loads[0].requests;
    const transferKb = pct(
      loads.map((l) => l.transferKb),
      50,
    );
    console.log(`Per load: ${requests} requests, ${transferKb.toFixed(0)} KiB transferred (p50).`);
    console.log(
      `BENCH_JSON ${JSON.stringify({
        bench: "page-load",
        sales,
        loads: LOADS,
        chromium: browser.version(),
        requests,
        transferKb,
        ...summary,
      })}`,
    );
  } finally {
    await browser.close();
    server.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
