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
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? E2E_PORT + 2000);

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: ".test-results/playwright.json" }]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
    },
  },
});
