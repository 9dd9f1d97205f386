import { IANAZone } from "luxon";
import { z } from "zod";
import { isStartAt } from "../lib/contract/clock";
import { DEMO_EVENT } from "./seed/demo-catalog";

/** Thrown when an environment variable is invalid; the message names the variable. */
export class ConfigError extends Error {}

const onOff = z.enum(["on", "off"]);

const apiConfigSchema = z.object({
  API_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  API_HOST: z.string().min(1).default("127.0.0.1"),
  // Default: `$DATA_DIR/api` (see apiDataDir), so one DATA_DIR holds a whole sandbox.
  API_DATA_DIR: z.string().min(1).optional(),
  API_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  API_ADMIN_TOKEN: z.string().min(24, "must be at least 24 characters").optional(),
  API_ENVIRONMENT: z.enum(["test", "live"]).default("test"),
  API_SEED: z.enum(["demo", "none"]).default("demo"),
  API_SEED_SCALE: z.coerce.number().positive().max(100).default(1),
  // The demo festival's time zone: the hour of its day that "now" falls on follows from it.
  API_SEED_TIME_ZONE: z
    .string()
    .refine((zone) => IANAZone.isValidZone(zone), "must be an IANA time zone such as Europe/Madrid")
    .default(DEMO_EVENT.timeZone),
  API_SEED_RANDOM: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(42),
  API_SIMULATOR: onOff.default("on"),
  API_SIMULATOR_RATE: z.coerce.number().positive().max(1000).default(2),
  // The simulator's random seed (default: a new one each start); a fixed one replays the same terminals.
  API_SIMULATOR_SEED: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
  // The sandbox's clock starts at this event-local time (HH:MM, on today's event-local date) or ISO
  // instant, then runs at real speed (lib/contract/clock.ts); the seeder, the simulator and every
  // answer read it. Sandbox only (API_SEED=demo, API_ENVIRONMENT=test).
  SANDBOX_START_AT: z
    .string()
    .refine(
      isStartAt,
      "must be an event-local time such as 23:30 or an ISO instant such as 2026-07-11T21:30:00Z",
    )
    .optional(),
  // Number of reverse proxies in front of the service whose X-Forwarded-For entries are trusted.
  API_TRUST_PROXY: z
    .string()
    .regex(/^(true|false|[0-9]{1,2})$/, "must be a number of proxy hops (0-10), true or false")
    .transform((v) => (v === "true" ? 1 : v === "false" ? 0 : Number(v)))
    .pipe(z.number().int().min(0).max(10))
    .default(0),
});

/** Every variable the service reads (docs/configuration.md documents each). */
export const API_VARIABLES: readonly string[] = Object.keys(apiConfigSchema.shape);

export type ApiConfig = z.infer<typeof apiConfigSchema> & { API_DATA_DIR: string };

/** The service's data directory: API_DATA_DIR, else `api/` inside DATA_DIR (default `.data`). */
export function apiDataDir(env: Record<string, string | undefined>): string {
  return env.API_DATA_DIR || `${(env.DATA_DIR || ".data").replace(/\/+$/, "")}/api`;
}

/** Parses the service's environment; empty strings count as unset. */
export function loadApiConfig(env: Record<string, string | undefined> = process.env): ApiConfig {
  const raw: Record<string, string> = {};
  for (const key of API_VARIABLES) {
    const value = env[key];
    if (value !== undefined && value !== "") raw[key] = value;
  }
  const result = apiConfigSchema.safeParse(raw);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const config = { ...result.data, API_DATA_DIR: result.data.API_DATA_DIR ?? apiDataDir(env) };
  if (config.SANDBOX_START_AT && !isSandbox(config))
    throw new ConfigError(
      "Invalid configuration:\n  SANDBOX_START_AT: only a sandbox (API_SEED=demo, API_ENVIRONMENT=test) has a clock to set",
    );
  return config;
}

/** The sandbox is the one place where an admin token may be generated instead of configured. */
export function isSandbox(config: ApiConfig): boolean {
  return config.API_SEED === "demo" && config.API_ENVIRONMENT === "test";
}
