import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import config, { OWN_STATE_SPECS, specOrder } from "../playwright.config";

/**
 * How the browser suite is scheduled (docs/testing.md): the spec files in E2E_ORDER, and two
 * workers on which only the specs with state of their own run beside the others.
 */

const specs = readdirSync("e2e").filter((f) => f.endsWith(".spec.ts"));
const declaresLock = (file: string) =>
  /test\.describe\.configure\(\{[^}]*\block: SHARED_SANDBOX\b/.test(readFileSync(`e2e/${file}`, "utf8"));

describe("the browser suite's order (E2E_ORDER)", () => {
  const files = ["c.spec.ts", "a.spec.ts", "d.spec.ts", "b.spec.ts", "e.spec.ts"];

  it("alphabetical and reverse", () => {
    expect(specOrder("alphabetical", files)).toEqual([
      "a.spec.ts",
      "b.spec.ts",
      "c.spec.ts",
      "d.spec.ts",
      "e.spec.ts",
    ]);
    expect(specOrder("reverse", files)).toEqual([
      "e.spec.ts",
      "d.spec.ts",
      "c.spec.ts",
      "b.spec.ts",
      "a.spec.ts",
    ]);
  });

  it("a seeded shuffle: every file once, the same order for the same seed, another for another seed", () => {
    const once = specOrder("shuffle:34", specs);
    expect([...once].sort()).toEqual([...specs].sort());
    expect(specOrder("shuffle:34", [...specs].reverse())).toEqual(once);
    expect(specOrder("shuffle:35", specs)).not.toEqual(once);
  });

  it("refuses an order it does not know", () => {
    expect(() => specOrder("random", files)).toThrow(/E2E_ORDER/);
  });
});

describe("the specs that run beside the others", () => {
  it("are spec files, and hold no lock", () => {
    for (const file of OWN_STATE_SPECS) {
      expect(specs, file).toContain(file);
      expect(declaresLock(file), file).toBe(false);
    }
  });

  it("every other spec holds the shared sandbox's lock", () => {
    const unlocked = specs.filter((file) => !OWN_STATE_SPECS.includes(file) && !declaresLock(file));
    expect(unlocked).toEqual([]);
  });

  it("the specs with their own state use none of the demo accounts", () => {
    for (const file of OWN_STATE_SPECS) {
      const source = readFileSync(`e2e/${file}`, "utf8");
      expect(source, file).not.toMatch(/\bLOGINS\b|signIn\(page, "(manager|supervisor|staff)"\)/);
    }
  });
});

describe("the projects", () => {
  it("one per spec file (Lighthouse's only in the benchmark), the locked ones first", () => {
    const files = (config.projects ?? []).map((p) => String(p.testMatch));
    expect([...files].sort()).toEqual(specs.filter((f) => f !== "lighthouse.spec.ts").sort());
    const firstOwn = files.findIndex((f) => OWN_STATE_SPECS.includes(f));
    expect(files.slice(firstOwn).every((f) => OWN_STATE_SPECS.includes(f))).toBe(true);
    expect(firstOwn).toBe(files.length - OWN_STATE_SPECS.length);
  });
});
