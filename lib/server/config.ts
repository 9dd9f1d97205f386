import "server-only";
import { z } from "zod";

/** Thrown when an environment variable is invalid; the message names the variable. */
export class DashboardConfigError extends Error {}

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  CASHLESS_API_URL: z.url({ protocol: /^https?$/ }).default("http://127.0.0.1:4010/v1"),
  CASHLESS_API_KEY: z
    .string()
    .regex(/^eak_(live|test)_[A-Za-z0-9_-]{43}$/, "must be an Integration API key (eak_live_… or eak_test_…)")
    .optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  SYNC_INTERVAL_S: z.coerce.number().int().min(5).max(3600).default(30),
  // Seconds between polls of the sales tail between cycles (top-ups and scans every third); 0: off.
  SYNC_TAIL_S: z.coerce.number().min(0).max(60).default(2.5),
  SYNC: z.enum(["on", "off"]).default("on"),
  SANDBOX: z.enum(["on", "off"]).default("off"),
  // The sandbox clock's offset from the system clock in ms, set by `npm start` from SANDBOX_START_AT
  // (the Integration API in the same sandbox reads the same instant); ignored unless SANDBOX=on.
  SANDBOX_CLOCK_OFFSET_MS: z.coerce.number().int().min(-1e13).max(1e13).default(0),
  // Reverse proxies in front of the console whose X-Forwarded-For/-Host/-Proto are believed.
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|[0-9]{1,2})$/, "must be a number of proxy hops (0-10), true or false")
    .transform((v) => (v === "true" ? 1 : v === "false" ? 0 : Number(v)))
    .pipe(z.number().int().min(0).max(10))
    .default(0),
  // The address browsers use to reach the console (scheme, host and port; no path). State changes
  // must name it in Host and Origin; without it only loopback names and IP literals are accepted.
  PUBLIC_URL: z
    .url({
      protocol: /^https?$/,
      message: "must be an http:// or https:// URL such as https://console.example",
    })
    .refine((url) => {
      const u = URL.parse(url);
      return u !== null && u.pathname === "/" && !u.search && !u.hash && !u.username && !u.password;
    }, "must be an origin only: scheme, host and port, no path, query or credentials")
    .transform((url) => new URL(url).origin)
    .optional(),
  // The push stream (GET /api/stream): seconds between heartbeats (a proxy's idle timeout must be
  // longer; the session is checked again at each) and the reconnect delay browsers are told.
  PUSH_HEARTBEAT_S: z.coerce.number().min(0.01).max(300).default(15),
  PUSH_RETRY_S: z.coerce.number().min(0.5).max(300).default(3),
  LOOKUP_BUDGET: z.coerce.number().int().min(1).max(10_000).default(30),
  // What needs attention: a terminal is quiet after this long without a record (at least), a record
  // is late when it reaches the upstream this long after it happened, and a terminal quiet or late
  // this long opens an alert. The defaults are the operating rules; demos and tests shorten them.
  ATTENTION_QUIET_S: z.coerce.number().int().min(5).max(86_400).default(600),
  ATTENTION_LATE_S: z.coerce.number().int().min(5).max(86_400).default(600),
  ATTENTION_ALERT_S: z.coerce.number().int().min(5).max(86_400).default(900),
  // Closing a night: the variance a desk's line, and the whole night, may have before a manager must
  // approve the sign-off, in minor units of the event currency (500 = 5.00).
  NIGHT_TOLERANCE_LINE: z.coerce.number().int().min(0).max(100_000_000).default(500),
  NIGHT_TOLERANCE_NIGHT: z.coerce.number().int().min(0).max(100_000_000).default(2000),
  // Alerts that find people (docs/notifications.md): the SMTP server e-mail contact points send
  // through (none: e-mail deliveries fail, saying so), its implicit TLS (on: port 465 style; off:
  // STARTTLS when the server offers it), its login, and the sender's address.
  SMTP_HOST: z.string().min(1).optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65_535).default(587),
  SMTP_SECURE: z.enum(["on", "off"]).default("off"),
  SMTP_USER: z.string().min(1).optional(),
  SMTP_PASSWORD: z.string().min(1).optional(),
  SMTP_FROM: z.string().min(3).default("Event console <console@localhost>"),
  // The key that seals contact points' secrets (webhook URLs); without it, one derived from
  // SESSION_SECRET. Changing it makes the stored webhooks unreadable (they must be entered again).
  NOTIFY_SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  // Seconds between the notification sender's rounds (route the outbox, send what is due).
  NOTIFY_INTERVAL_S: z.coerce.number().int().min(1).max(600).default(10),
});

/** Every variable the dashboard reads (docs/configuration.md documents each). */
export const DASHBOARD_VARIABLES: readonly string[] = Object.keys(schema.shape);

export type DashboardConfig = z.infer<typeof schema> & { CASHLESS_API_KEY: string; SESSION_SECRET: string };

/**
 * Reads and validates the dashboard's environment. Production refuses to start without an API key
 * or with a session secret shorter than 32 characters.
 */
export function parseDashboardConfig(env: Record<string, string | undefined> = process.env): DashboardConfig {
  const raw: Record<string, string> = {};
  for (const key of DASHBOARD_VARIABLES) {
    const value = env[key];
    if (value !== undefined && value !== "") raw[key] = value;
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new DashboardConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const config = result.data;
  const missing = [
    !config.CASHLESS_API_KEY &&
      "CASHLESS_API_KEY: required (the Integration API key; `npm start` provisions one)",
    !config.SESSION_SECRET && "SESSION_SECRET: required, at least 32 random characters",
  ].filter(Boolean);
  if (missing.length) throw new DashboardConfigError(`Invalid configuration:\n  ${missing.join("\n  ")}`);
  return config as DashboardConfig;
}

let cached: DashboardConfig | undefined;

/** The process's configuration, validated once. */
export function dashboardConfig(): DashboardConfig {
  cached ??= parseDashboardConfig();
  return cached;
}
