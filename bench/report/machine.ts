import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { arch, availableParallelism, cpus, freemem, loadavg, release, totalmem } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";

/** The machine a benchmark run measured, for results.md. */

function osName(): string {
  try {
    const line = readFileSync("/etc/os-release", "utf8")
      .split("\n")
      .find((l) => l.startsWith("PRETTY_NAME="));
    if (line) return line.slice("PRETTY_NAME=".length).replace(/^"|"$/g, "");
  } catch {
    // not Linux
  }
  return process.platform;
}

const packageVersion = (name: string) =>
  (JSON.parse(readFileSync(join("node_modules", name, "package.json"), "utf8")) as { version: string })
    .version;

export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");

export async function machine() {
  const lite = await PGlite.create();
  const [{ version: pgliteServer }] = (await lite.query<{ version: string }>("select version()")).rows;
  await lite.close();
  const postgres = spawnSync(
    "psql",
    ["-tA", "-h", "127.0.0.1", "-U", "postgres", "-c", "show server_version"],
    {
      encoding: "utf8",
    },
  ).stdout?.trim();
  const cpu = cpus();
  const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  const git = (args: string[]) => spawnSync("git", args, { encoding: "utf8" }).stdout.trim();
  return {
    cpu: `${cpu[0]?.model ?? "unknown"} × ${cpu.length} (available parallelism ${availableParallelism()})`,
    ram: `${gib(totalmem())} (free at start ${gib(freemem())})`,
    os: `${osName()}, kernel ${release()} (${arch()})`,
    node: process.version,
    stores: `PGlite ${packageVersion("@electric-sql/pglite")} (${pgliteServer.split(",")[0]}), embedded, for both the Integration API's and the dashboard's stores; PostgreSQL ${postgres || "(not reachable)"} at 127.0.0.1:5432 where a benchmark says so`,
    next: packageVersion("next"),
    load: loadAverage(),
    commit: `${git(["rev-parse", "--short", "HEAD"])}${git(["status", "--porcelain", "--untracked-files=no"]) ? " (with uncommitted changes)" : ""}`,
  };
}
