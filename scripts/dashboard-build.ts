/**
 * The rule shared by `npm start` and `npm run bench`: build the dashboard (`next build`) when there is
 * no build yet or a source file is newer than it. The build's own output (its route table) is shown
 * only when it fails.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { NEXT_BIN, nextEnv } from "./next-process";

/** What a build depends on; a change to any of them makes the build stale. */
const SOURCES = [
  "app",
  "components",
  "lib",
  "messages",
  "proxy.ts",
  "instrumentation.ts",
  "instrumentation-client.ts",
  "next.config.ts",
  "package-lock.json",
];

function newestSource(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestSource(join(path, entry))));
}

/**
 * Builds when needed; returns the build's seconds, or null when the build was up to date.
 * `announce` is told whether this is the first build (no build yet) or a rebuild.
 */
export function buildDashboardIfNeeded(announce: (firstBuild: boolean) => void): number | null {
  const buildId = ".next/BUILD_ID";
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  if (built && Math.max(...SOURCES.map(newestSource)) < built) return null;
  announce(!built);
  const started = performance.now();
  const result = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: nextEnv(),
  });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    throw new Error(
      `next build failed${result.error ? ` (${result.error.message})` : ""}; its output is above`,
    );
  }
  return (performance.now() - started) / 1000;
}
