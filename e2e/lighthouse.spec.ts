import { mkdirSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { launch } from "chrome-launcher";
import lighthouse, { desktopConfig, type Flags, generateReport, type Result } from "lighthouse";
import { E2E_PORT } from "../playwright.config";
import { recordMeasure } from "./measures";
import { LOGINS, SAME_ORIGIN, SHARED_SANDBOX, signIn, waitForFirstSync } from "./support";

/**
 * Lighthouse (issue #8) on the login page and on the overview, signed in: accessibility 100, in
 * Debian's Chromium; and (issue 14) on the staff's search page with the mobile preset.
 *
 * The desktop preset (`lighthouse/core/config/desktop-config.js`: a 1350×940 screen, a fast wired
 * connection, no CPU slowdown) because the console is used on laptops and tablets at the desks,
 * not on phones. Throttling stays Lighthouse's default, simulated (Lantern), so the network
 * figures do not depend on this machine's loopback.
 *
 * The performance score depends on the machine (two cores, shared with other jobs): it is measured
 * and recorded (e2e/measures.ts), never asserted here. `npm run bench:browser` runs this spec with
 * LIGHTHOUSE_RUNS (default here 1) runs per page and holds the median to its goal of 90. Every
 * run's scores are printed; the last run's report is kept in `.test-results/lighthouse-<page>.html`.
 */

const BASE = `http://localhost:${E2E_PORT}`;
const CHROME = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 1);

type Scores = { performance: number; accessibility: number };

function scores(lhr: Result): Scores {
  return {
    performance: lhr.categories.performance?.score ?? 0,
    accessibility: lhr.categories.accessibility?.score ?? 0,
  };
}

/** The metrics behind the performance score, for the CI log. */
function metrics(lhr: Result): string {
  const ms = (id: string) => `${Math.round(lhr.audits[id]?.numericValue ?? Number.NaN)} ms`;
  return [
    `FCP ${ms("first-contentful-paint")}`,
    `LCP ${ms("largest-contentful-paint")}`,
    `TBT ${ms("total-blocking-time")}`,
    `CLS ${(lhr.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN).toFixed(3)}`,
    `SI ${ms("speed-index")}`,
  ].join(", ");
}

/** The audits that cost points (failing accessibility audits; performance opportunities). */
function losses(lhr: Result): string[] {
  return Object.values(lhr.categories)
    .flatMap((category) =>
      category.auditRefs.filter((ref) => ref.weight > 0).map((ref) => lhr.audits[ref.id]!),
    )
    .filter((audit) => audit.score !== null && audit.score < 0.9)
    .map((audit) => `${audit.id}: ${audit.score} ${audit.displayValue ?? ""}`.trim());
}

/** Lighthouse's runtime errors of its own recording, not of the page (its message: "run again"). */
const LIGHTHOUSE_GLITCHES = new Set(["NO_NAVSTART", "NO_TRACING_STARTED", "NO_RESOURCE_REQUEST"]);

async function audit(url: string, flags: Flags, preset: "desktop" | "mobile") {
  const result = await lighthouse(url, flags, preset === "desktop" ? desktopConfig : undefined);
  if (!result?.lhr) throw new Error(`Lighthouse returned no result for ${url}`);
  return result.lhr;
}

/**
 * Runs Lighthouse on `path` RUNS times in a fresh Chromium, records each run's performance score and
 * answers every run's scores. `mobile`: Lighthouse's default preset (a phone's screen, a slow 4G
 * network and a 4× slower CPU, simulated).
 */
async function measure(
  name: string,
  path: string,
  cookie?: string,
  preset: "desktop" | "mobile" = "desktop",
): Promise<Scores[]> {
  const chrome = await launch({
    chromePath: CHROME,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const flags: Flags = {
      port: chrome.port,
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    };
    const runs: Scores[] = [];
    for (let run = 1; run <= RUNS; run++) {
      let lhr = await audit(`${BASE}${path}`, flags, preset);
      // Lighthouse's own trace recording fails now and then on a busy machine ("please run
      // Lighthouse again"): such a run measured nothing of the page, so it is run once more.
      if (lhr.runtimeError && LIGHTHOUSE_GLITCHES.has(lhr.runtimeError.code)) {
        console.log(`Lighthouse ${name}: ${lhr.runtimeError.code}, run again`);
        lhr = await audit(`${BASE}${path}`, flags, preset);
      }
      if (lhr.runtimeError) throw new Error(`Lighthouse on ${path}: ${lhr.runtimeError.message}`);
      expect(new URL(lhr.finalDisplayedUrl).pathname, "measured the page itself, not a redirect").toBe(path);
      const s = scores(lhr);
      console.log(
        `Lighthouse ${name} run ${run}/${RUNS}: performance ${Math.round(s.performance * 100)}, ` +
          `accessibility ${Math.round(s.accessibility * 100)} (${metrics(lhr)})`,
      );
      const lost = losses(lhr);
      if (lost.length) console.log(`  audits below 0.9: ${lost.join("; ")}`);
      recordMeasure({ name: `lighthouse-performance ${name}`, value: s.performance, unit: "score" });
      mkdirSync(".test-results", { recursive: true });
      writeFileSync(`.test-results/lighthouse-${name}.html`, generateReport(lhr, "html"));
      runs.push(s);
    }
    return runs;
  } finally {
    chrome.kill();
  }
}

// A Lighthouse run takes up to about a minute on a busy two-core machine.
test.describe.configure({ lock: SHARED_SANDBOX, timeout: 120_000 + RUNS * 120_000 });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  // The overview is measured with the event mirrored, as staff see it.
  const page = await browser.newPage();
  await signIn(page, "manager");
  await waitForFirstSync(page);
  await page.close();
});

test("Lighthouse on /login: accessibility 100", async () => {
  const runs = await measure("login", "/login");
  expect(runs.map((s) => s.accessibility)).toEqual(runs.map(() => 1));
});

test("Lighthouse on the overview, signed in: accessibility 100", async ({ request }) => {
  const res = await request.post("/api/auth/login", { data: LOGINS.manager, headers: SAME_ORIGIN });
  expect(res.ok()).toBe(true);
  const session = (await request.storageState()).cookies.find((c) => c.name === "eoc_session");
  expect(session).toBeDefined();
  const runs = await measure("overview", "/", `${session!.name}=${session!.value}`);
  expect(runs.map((s) => s.accessibility)).toEqual(runs.map(() => 1));
});

// Gate staff search on phones (issue 14): their home, measured with the mobile preset.
test("Lighthouse on the staff search page, mobile preset: accessibility 100", async ({ request }) => {
  const res = await request.post("/api/auth/login", { data: LOGINS.staff, headers: SAME_ORIGIN });
  expect(res.ok()).toBe(true);
  const session = (await request.storageState()).cookies.find((c) => c.name === "eoc_session");
  expect(session).toBeDefined();
  const runs = await measure("search-mobile", "/search", `${session!.name}=${session!.value}`, "mobile");
  expect(runs.map((s) => s.accessibility)).toEqual(runs.map(() => 1));
});

// What needs attention (issue 13): the terminals and the alerts, as a manager sees them.
for (const [name, path] of [
  ["terminals", "/terminals"],
  ["alerts", "/alerts"],
] as const) {
  test(`Lighthouse on ${path}, signed in: accessibility 100`, async ({ request }) => {
    const res = await request.post("/api/auth/login", { data: LOGINS.manager, headers: SAME_ORIGIN });
    expect(res.ok()).toBe(true);
    const session = (await request.storageState()).cookies.find((c) => c.name === "eoc_session");
    expect(session).toBeDefined();
    const runs = await measure(name, path, `${session!.name}=${session!.value}`);
    expect(runs.map((s) => s.accessibility)).toEqual(runs.map(() => 1));
  });
}
