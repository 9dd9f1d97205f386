/**
 * What `npm start` prints: one sentence while it builds, then the console's address and the demo
 * logins once the dashboard answers. Next.js's own start banner (version, "Ready in", the addresses,
 * the experiments) is dropped, and so is the simulator's commentary; anything else the dashboard and
 * the Integration API print (their logs, their errors) passes.
 */
import { isAddressLine } from "./next-process";

/** The sentence shown before `next build`: the first build, or a rebuild after a source changed. */
export function buildNotice(firstBuild: boolean): string {
  return firstBuild
    ? "Building the console — about 2 minutes, once."
    : "Rebuilding the console: a source file changed since the last build (about 2 minutes).";
}

/** Next.js's "✓ Ready in 181ms": the dashboard accepts requests from then on. */
export function isReadyLine(line: string): boolean {
  return /^\s*✓\s*Ready\b/.test(line);
}

/** A line of Next.js's start banner, which `npm start` replaces with its own. */
export function isNextBannerLine(line: string): boolean {
  return (
    line.trim() === "" ||
    isAddressLine(line) ||
    isReadyLine(line) ||
    /^\s*▲\s*Next\.js\b/.test(line) ||
    /^\s*✓\s*(Starting|Running next\.config)/.test(line) ||
    /^\s*-\s*Experiments\b/.test(line) ||
    /^\s*·\s/.test(line)
  );
}

/**
 * The sandbox simulator's running commentary ("bar-03 offline for 26 min"): demo chatter that would
 * scroll the address and the logins away. Its other lines (the seed, its errors, its stop) pass.
 */
export function isSimulatorChatter(line: string): boolean {
  return /^\[integration-api\] simulator: \S+ (taken )?offline for \d+ min$/.test(line);
}

export interface ReadyBanner {
  url: string;
  /** Where it listens (see listenHost). */
  hostNote: string;
  /** The sandbox's demo logins; none against a real upstream. */
  logins?: readonly { role: string; username: string; password: string }[];
}

/** The lines printed once the dashboard is ready. */
export function readyBanner({ url, hostNote, logins }: ReadyBanner): string[] {
  const lines = ["", `  Event operations console: ${url}`, `  ${hostNote}`];
  if (logins?.length) {
    lines.push("  Demo logins (sandbox only):");
    for (const u of logins) lines.push(`    ${u.role.padEnd(10)} ${u.username} / ${u.password}`);
  }
  lines.push("  Ctrl-C stops everything.", "");
  return lines;
}
