import { existsSync, readdirSync } from "node:fs";
import { defineConfig } from "@playwright/test";

/**
 * Browser tests against the whole sandbox (`npm start`: the real Integration API and the
 * dashboard), in Debian's Chromium: Playwright cannot download its own browsers on these machines.
 */
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? ".data/e2e";
// Overridable so that two checkouts can run their browser tests side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3610);
export const E2E_API_PORT = Number(process.env.E2E_API_PORT ?? 4610);
// The SMTP server e2e/notify.spec.ts starts: the dashboard sends its e-mails there.
/** The event-local time the e2e sandbox's clock starts at (docs/testing.md): 12:30, 23:30, 05:30 are tried. */
export const E2E_START_AT = process.env.E2E_START_AT ?? "23:30";
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? E2E_PORT + 2000);

/**
 * The browser the tests drive (CHROMIUM_PATH overrides): Debian's headless shell (package
 * chromium-headless-shell, the same Chromium without its desktop shell, what Playwright itself
 * runs headless tests in) where it is installed, else the full browser in its headless mode. The
 * shell drew the accessibility spec in a quarter less CPU (docs/testing.md); Lighthouse and the
 * benchmarks keep the full browser, the one people use.
 */
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

/** Specs that only `npm run bench:browser` runs (it sets E2E_BENCH). */
const BENCH_ONLY = process.env.E2E_BENCH ? [] : ["lighthouse.spec.ts"];

/**
 * The order the spec files run in (E2E_ORDER): `alphabetical` (Playwright's own), `reverse`, or
 * `shuffle:<seed>`. Each spec owns its state, so any order gives the same answer; `npm test` runs a
 * seeded shuffle to keep that true. The workers take the spec files in the order they are listed:
 * the specs that share the sandbox (the SHARED_SANDBOX lock, e2e/support.ts) one after another in
 * that order, the others beside them.
 */
export function specOrder(order: string, files: string[]): string[] {
  const sorted = [...files].sort();
  if (order === "alphabetical") return sorted;
  if (order === "reverse") return sorted.reverse();
  const seed = /^shuffle:(\d{1,10})$/.exec(order);
  if (!seed) throw new Error(`E2E_ORDER: "${order}" is not alphabetical, reverse or shuffle:<seed>`);
  // mulberry32, as lib/testing/fake-clock.ts: the same seed gives the same order on every machine.
  let a = Number(seed[1]) >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = sorted.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [sorted[i], sorted[j]] = [sorted[j]!, sorted[i]!];
  }
  return sorted;
}

/**
 * Specs whose state is their own, which hold no lock: accessibility (accounts of its own, which
 * only reads), live-first (a sandbox of its own), instances (consoles and a store of their own).
 * Every other spec declares the SHARED_SANDBOX lock (e2e/support.ts; scripts/e2e-schedule.test.ts
 * checks both lists).
 */
export const OWN_STATE_SPECS = ["accessibility.spec.ts", "live-first.spec.ts", "instances.spec.ts"];

const ORDER = process.env.E2E_ORDER ?? "alphabetical";
const SPECS = readdirSync("e2e").filter((f) => f.endsWith(".spec.ts") && !BENCH_ONLY.includes(f));

/**
 * The projects, one per spec file, in E2E_ORDER: the locked specs first, then those with state of
 * their own. A free worker takes the first spec it may run, so the locked specs — the longest chain
 * — follow one another without a pause while the others fill the second worker.
 */
function orderedSpecs(order: string): string[] {
  const ordered = specOrder(order, SPECS);
  return [
    ...ordered.filter((f) => !OWN_STATE_SPECS.includes(f)),
    ...ordered.filter((f) => OWN_STATE_SPECS.includes(f)),
  ];
}

export default defineConfig({
  testDir: "e2e",
  // Lighthouse's scores are `npm run bench:browser`'s (it sets E2E_BENCH); accessibility is axe's here.
  testIgnore: BENCH_ONLY,
  projects: orderedSpecs(ORDER).map((file, i) => ({ name: `${i + 1} ${file}`, testMatch: file })),
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // One on a two-core machine: the suite is bound by the CPU (Chromium's renderers most), and two
  // workers made each test about twice as slow (docs/testing.md). With E2E_WORKERS=2 or more on a
  // bigger machine, the specs that share the demo accounts and the clock hold a lock and run one at
  // a time, those with state of their own (OWN_STATE_SPECS) run beside them.
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: 0,
  reporter: [["list"], ["json", { outputFile: ".test-results/playwright.json" }]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: "off",
    // As a person whose system asks for reduced motion: the charts draw at once instead of
    // animating each redraw (components/ui/chart-frame.tsx), which costs the renderer's CPU.
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "bash e2e/start-sandbox.sh",
    url: `http://localhost:${E2E_PORT}/login`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      DATA_DIR: E2E_DATA_DIR,
      API_DATA_DIR: `${E2E_DATA_DIR}/api`,
      PORT: String(E2E_PORT),
      API_PORT: String(E2E_API_PORT),
      API_SEED_SCALE: "0.2",
      API_SIMULATOR_RATE: "4",
      API_SIMULATOR_SEED: "20261127",
      // The sandbox's clock starts at a fixed event-local time (E2E_START_AT, default 23:30): two
      // closed nights and a running one with sales exist whatever the hour the suite runs at.
      SANDBOX_START_AT: E2E_START_AT,
      // The specs look codes up far faster than a gate (one staff account searches a dozen codes in
      // seconds, in two languages): the fair-use share and the per-user budget are tested on their own.
      SANDBOX_READ_LIMIT: "600",
      LOOKUP_BUDGET: "200",
      SYNC_INTERVAL_S: "10",
      // What needs attention, shortened so that e2e/attention.spec.ts sees it within minutes.
      ATTENTION_QUIET_S: "20",
      ATTENTION_LATE_S: "20",
      ATTENTION_ALERT_S: "30",
      // Notifications (e2e/notify.spec.ts): its SMTP server, and a sender round every 2 s.
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(E2E_SMTP_PORT),
      NOTIFY_INTERVAL_S: "2",
      NEXT_TELEMETRY_DISABLED: "1",
      // `npm test` typechecked everything before; the build does not do it again (next.config.ts).
      BUILD_TYPECHECK: "off",
    },
  },
});
