import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const run = (dataDir: string, args: string[], env: Record<string, string> = {}) => {
  try {
    return {
      code: 0,
      out: execFileSync("npx", ["tsx", "--conditions=react-server", "scripts/users.ts", ...args], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", ...env },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }),
    };
  } catch (err) {
    const e = err as { status: number; stdout: string; stderr: string };
    return { code: e.status, out: `${e.stdout}${e.stderr}` };
  }
};

describe("npm run users", () => {
  it("adds, lists, changes the password of and removes staff accounts", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "users-cli-"));
    expect(
      run(dataDir, ["add", "ana", "--role", "supervisor", "--password", "ana-long-password"]).out,
    ).toContain("Added ana (supervisor)");
    expect(run(dataDir, ["add", "bob", "--role", "staff"], { USER_PASSWORD: "bob-long-password" }).code).toBe(
      0,
    );
    const listed = run(dataDir, ["list"]).out;
    expect(listed).toMatch(/ana\s+supervisor/);
    expect(listed).toMatch(/bob\s+staff/);
    expect(run(dataDir, ["set-password", "ana", "--password", "another-long-one"]).code).toBe(0);
    expect(run(dataDir, ["remove", "bob"]).code).toBe(0);
    expect(run(dataDir, ["list"]).out).not.toContain("bob");
  }, 120_000);

  it("changes a role, unlocks and signs a user out everywhere", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "users-cli-"));
    run(dataDir, ["add", "cora", "--role", "staff", "--password", "cora-long-password"]);
    expect(run(dataDir, ["set-role", "cora", "--role", "supervisor"]).out).toContain(
      "cora is now supervisor; 0 session(s) ended.",
    );
    expect(run(dataDir, ["set-role", "cora", "--role", "supervisor"]).out).toContain(
      "cora is supervisor already: nothing changed, no session ended.",
    );
    expect(run(dataDir, ["list"]).out).toMatch(/cora\s+supervisor\s+0 session\(s\)/);
    expect(run(dataDir, ["unlock", "cora"]).out).toContain("cora can sign in from new browsers again.");
    expect(run(dataDir, ["sign-out", "cora"]).out).toContain("Ended 0 session(s) of cora.");
    expect(run(dataDir, ["set-role", "cora", "--role", "root"]).out).toContain("role: one of");
  }, 120_000);

  it("refuses bad input with a clear message and a non-zero exit", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "users-cli-"));
    const badRole = run(dataDir, ["add", "eve", "--role", "admin", "--password", "long-enough-pass"]);
    expect(badRole.code).toBe(1);
    expect(badRole.out).toContain("role: one of manager, supervisor, staff");
    const shortPassword = run(dataDir, ["add", "eve", "--role", "staff", "--password", "short"]);
    expect(shortPassword.code).toBe(1);
    expect(shortPassword.out).toContain("password: at least");
    expect(run(dataDir, ["remove", "nobody"]).out).toContain("no user nobody");
  }, 120_000);
});
