import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../lib/db/db";
import { openTestDashboardStore } from "../lib/testing/dashboard-store";
import { runUsersCli } from "./users";

/**
 * The CLI's commands run in-process on one migrated store per test (the same function `npm run
 * users` calls, with its output and exit code); one test runs the real npm script once on a data
 * directory, so its wiring (tsx, the store under DATA_DIR, stderr, the exit code) is proven too.
 */

let db: Db;

/** One command: its exit code and everything it printed (stdout, then stderr). */
async function run(args: string[], env: Record<string, string> = {}) {
  let out = "";
  let err = "";
  const code = await runUsersCli(args, {
    env,
    db,
    out: (line) => {
      out += `${line}\n`;
    },
    err: (line) => {
      err += `${line}\n`;
    },
  });
  return { code, out: `${out}${err}` };
}

describe("npm run users", () => {
  beforeEach(async () => {
    db = await openTestDashboardStore();
  });
  afterEach(async () => {
    await db.close();
  });

  it("adds, lists, changes the password of and removes staff accounts", async () => {
    expect(await run(["add", "ana", "--role", "supervisor", "--password", "ana-long-password"])).toEqual({
      code: 0,
      out: "Added ana (supervisor).\n",
    });
    expect((await run(["add", "bob", "--role", "staff"], { USER_PASSWORD: "bob-long-password" })).code).toBe(
      0,
    );
    const listed = await run(["list"]);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/ana\s+supervisor/);
    expect(listed.out).toMatch(/bob\s+staff/);
    expect((await run(["set-password", "ana", "--password", "another-long-one"])).code).toBe(0);
    expect((await run(["remove", "bob"])).code).toBe(0);
    expect((await run(["list"])).out).not.toContain("bob");
  });

  it("changes a role, unlocks and signs a user out everywhere", async () => {
    await run(["add", "cora", "--role", "staff", "--password", "cora-long-password"]);
    expect((await run(["set-role", "cora", "--role", "supervisor"])).out).toContain(
      "cora is now supervisor; 0 session(s) ended.",
    );
    expect((await run(["set-role", "cora", "--role", "supervisor"])).out).toContain(
      "cora is supervisor already: nothing changed, no session ended.",
    );
    expect((await run(["list"])).out).toMatch(/cora\s+supervisor\s+0 session\(s\)/);
    expect((await run(["unlock", "cora"])).out).toContain("cora can sign in from new browsers again.");
    expect((await run(["sign-out", "cora"])).out).toContain("Ended 0 session(s) of cora.");
    const badRole = await run(["set-role", "cora", "--role", "root"]);
    expect(badRole.code).toBe(1);
    expect(badRole.out).toContain("role: one of");
  });

  it("refuses bad input with a clear message and a non-zero exit", async () => {
    const badRole = await run(["add", "eve", "--role", "admin", "--password", "long-enough-pass"]);
    expect(badRole.code).toBe(1);
    expect(badRole.out).toContain("role: one of manager, supervisor, staff");
    const shortPassword = await run(["add", "eve", "--role", "staff", "--password", "short"]);
    expect(shortPassword.code).toBe(1);
    expect(shortPassword.out).toContain("password: at least");
    const nobody = await run(["remove", "nobody"]);
    expect(nobody.code).toBe(1);
    expect(nobody.out).toContain("no user nobody");
    const unknown = await run(["rename", "eve"]);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain("Usage:");
  });
});

describe("the npm script", () => {
  it("runs as the npm script on the store under DATA_DIR, exiting non-zero when it refuses", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "users-cli-"));
    try {
      const failed = await promisify(execFile)(
        "npm",
        ["run", "--silent", "users", "--", "remove", "nobody"],
        {
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
          encoding: "utf8",
        },
      ).then(
        () => null,
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toBe("users: username: no user nobody\n");
      // It opened (created and migrated) the embedded store there, and let it go.
      expect(existsSync(join(dataDir, "dashboard", "PG_VERSION"))).toBe(true);
      expect(existsSync(join(dataDir, "dashboard.lock"))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
