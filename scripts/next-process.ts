/**
 * How every start path runs Next.js (npm start, the benchmarks, the browser tests): Node runs
 * Next's own entry (no npx in between, so stopping the child stops the server), with telemetry off.
 */
import { join } from "node:path";

export const NEXT_BIN = join("node_modules", "next", "dist", "bin", "next");

/** The environment of a Next.js child: the given one (default: this process's), with telemetry off. */
export function nextEnv(env: Record<string, string | undefined> = process.env): NodeJS.ProcessEnv {
  // ProcessEnv's NODE_ENV is a union (Next's types): the variables pass through as they are.
  return { ...env, NEXT_TELEMETRY_DISABLED: "1" } as unknown as NodeJS.ProcessEnv;
}

/** `next start` on a port, bound to `host` when given (else Next's default: every interface). */
export function nextStartArgs(port: number, host?: string): string[] {
  return [NEXT_BIN, "start", "-p", String(port), ...(host ? ["-H", host] : [])];
}

/**
 * A line of Next's start banner that names an address (`- Local:`, `- Network:`): the start script
 * prints the console's address itself, and a "Network:" address would invite phones to a sandbox
 * that listens on loopback only (and shows its demo passwords).
 */
export function isAddressLine(line: string): boolean {
  return /^\s*-\s*(Local|Network):/.test(line);
}
