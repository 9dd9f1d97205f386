import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { API_VARIABLES } from "@/integration-api/config";
import { DASHBOARD_VARIABLES } from "@/lib/server/config";

/**
 * The documentation stays true and inside the repository: a short README, docs/ for the rest, every
 * link resolving to a file (and heading) of the clone, every variable the code reads and every npm
 * script documented.
 */

const root = normalize(join(__dirname, ".."));
const README_MAX_LINES = 150;

const tracked = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((f) => f && existsSync(join(root, f)));
const pages = tracked.filter((f) => f === "README.md" || /^docs\/[^/]+\.md$/.test(f));
const read = (file: string) => readFileSync(join(root, file), "utf8");

/** A page's text outside fenced code blocks and inline code (links there are not links). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "``");
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of read(file)
    .replace(/^```[\s\S]*?^```/gm, "")
    .matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]!.trim());
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** Every `[text](target)` of a page, with the file and anchor it points at. */
function linksOf(page: string): { target: string; file: string | null; anchor: string | null }[] {
  const out = [];
  for (const m of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z]+:/i.test(target)) {
      out.push({ target, file: null, anchor: null });
      continue;
    }
    const [path, anchor] = target.split("#") as [string, string | undefined];
    const file = path ? normalize(join(dirname(page), path)) : page;
    out.push({ target, file, anchor: anchor ?? null });
  }
  return out;
}

describe("the README and docs/", () => {
  it("the README is read in five minutes", () => {
    const lines = read("README.md").split("\n").length;
    expect(lines, `README.md has ${lines} lines`).toBeLessThanOrEqual(README_MAX_LINES);
    expect(pages.length).toBeGreaterThan(5);
  });

  it("no page points outside the repository, and every relative link resolves", () => {
    const broken: string[] = [];
    for (const page of pages) {
      if (read(page).includes("../shared")) broken.push(`${page}: names ../shared`);
      for (const link of linksOf(page)) {
        if (link.file === null) continue;
        const rel = relative(root, join(root, link.file));
        if (rel.startsWith(`..${sep}`) || rel === "..") {
          broken.push(`${page}: ${link.target} leaves the repository`);
        } else if (!existsSync(join(root, rel))) {
          broken.push(`${page}: ${link.target} does not exist`);
        } else if (link.anchor !== null) {
          if (!statSync(join(root, rel)).isFile() || !rel.endsWith(".md")) continue;
          if (!anchorsOf(rel).has(link.anchor)) broken.push(`${page}: ${link.target} names no heading`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("docs/configuration.md has a row for every variable of the dashboard and the Integration API", () => {
    const configuration = read("docs/configuration.md");
    const missing = [...DASHBOARD_VARIABLES, ...API_VARIABLES].filter(
      (name) => !new RegExp(`^\\| \`${name}\` +\\|`, "m").test(configuration),
    );
    expect(missing).toEqual([]);
  });

  it("docs/configuration.md names every environment variable the code reads, and only those", () => {
    const sources = tracked.filter(
      (f) => /\.(ts|tsx|mjs|sh)$/.test(f) && !f.startsWith("docs/") && f !== "lib/docs.test.ts",
    );
    const code = sources.map(read).join("\n");
    const read_ = new Set<string>();
    for (const m of code.matchAll(/\benv(?:\.|\[["'])([A-Z][A-Z0-9_]+)/g)) read_.add(m[1]!);
    const configuration = read("docs/configuration.md");
    const undocumented = [...read_].filter((name) => !configuration.includes(`\`${name}\``));
    expect(undocumented).toEqual([]);

    const rows = [...configuration.matchAll(/^\| `([A-Z][A-Z0-9_]+)` +\|/gm)].map((m) => m[1]!);
    const unknown = rows.filter((name) => !new RegExp(`\\b${name}\\b`).test(code));
    expect(unknown).toEqual([]);
  });

  it("every npm script is documented in the README or docs/", () => {
    const scripts = Object.keys((JSON.parse(read("package.json")) as { scripts: object }).scripts);
    const text = pages.map(read).join("\n");
    const undocumented = scripts.filter((name) => {
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const run = ["start", "test"].includes(name) ? `npm (run )?${escaped}` : `npm run ${escaped}`;
      return !new RegExp(`${run}(?![\\w:-])`).test(text);
    });
    expect(undocumented).toEqual([]);
  });
});
