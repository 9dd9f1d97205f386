/**
 * `next start` of the current build on a benchmark's dashboard store, the way the HTTP phases of
 * the benchmarks run it: no sync worker, an upstream that answers nothing (the reads under test
 * never reach it), and a signed-in session of the bench user (who must exist in the store, which
 * must be closed: one process per PGlite store).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { nextEnv, nextStartArgs } from "../scripts/next-process";
import { BENCH_USER } from "./dashboard-store";

export interface BenchServer {
  base: string;
  /** The session's cookies, `name=value` each (for a `cookie` header or a browser context). */
  cookies: { name: string; value: string }[];
  /** The same as one `cookie` header. */
  cookieHeader: string;
  stop(): void;
}

export async function startBenchServer(dataDir: string, port: number): Promise<BenchServer> {
  const base = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, nextStartArgs(port, "127.0.0.1"), {
    env: nextEnv({
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      SYNC: "off",
      SESSION_SECRET: "bench-session-secret-0123456789abcdefghij",
      CASHLESS_API_KEY: `eak_test_${"b".repeat(43)}`,
      CASHLESS_API_URL: "http://127.0.0.1:9/v1",
    }),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = () => server.kill("SIGTERM");
  try {
    for (let i = 0; ; i++) {
      if (i > 240) throw new Error("next start did not answer");
      const up = await fetch(`${base}/login`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify(BENCH_USER),
    });
    if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
    const cookies = login.headers.getSetCookie().map((c) => {
      const [name = "", ...value] = (c.split(";")[0] ?? "").split("=");
      return { name, value: value.join("=") };
    });
    return { base, cookies, cookieHeader: cookies.map((c) => `${c.name}=${c.value}`).join("; "), stop };
  } catch (err) {
    stop();
    throw err;
  }
}
