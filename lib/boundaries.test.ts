import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The house rules ("Where things are" in docs/architecture.md), as a test: a folder's name says who may
 * import it. Each rule lists the files that break it, with the import that does.
 */

const root = normalize(join(__dirname, ".."));
const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && existsSync(join(root, f)));
const isTest = (f: string) => /\.(test|spec)\.tsx?$/.test(f) || f.startsWith("e2e/");
const production = files.filter((f) => !isTest(f) && !f.startsWith("bench/") && !f.includes("testing/"));

/** A statement sent to a store (a transaction only groups the store's own statements). */
const SQL = /\.(query|exec)\(/;
const IMPORT = /(?:from|import)\s*\(?\s*["']([^"']+)["']/g;
const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

/** Repo-relative targets of a file's imports; packages keep their name, prefixed "pkg:". */
function importsOf(file: string): { spec: string; target: string }[] {
  const text = readFileSync(join(root, file), "utf8");
  const out: { spec: string; target: string }[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1]!;
    if (!spec.startsWith(".") && !spec.startsWith("@/")) {
      out.push({ spec, target: `pkg:${spec}` });
      continue;
    }
    const base = spec.startsWith("@/") ? spec.slice(2) : normalize(join(dirname(file), spec));
    const found = EXTENSIONS.map((e) => base + e).find((p) => files.includes(p));
    out.push({ spec, target: found ?? base });
  }
  return out;
}

/** Every `file → import` among `scope` that `allowed` refuses. */
function breaches(
  scope: (f: string) => boolean,
  allowed: (target: string, file: string) => boolean,
): string[] {
  return production.filter(scope).flatMap((f) =>
    importsOf(f)
      .filter((i) => !allowed(i.target, f))
      .map((i) => `${f} → ${i.spec}`),
  );
}

const under = (dir: string) => (f: string) => f.startsWith(`${dir}/`);
const pkg = (t: string) => t.startsWith("pkg:");
const nodeBuiltin = (t: string) => t.startsWith("pkg:node:");
/** lib/server's lower layers: what every feature may use. Every other folder of lib/server is a feature. */
const LAYERS = ["http", "store", "sync", "upstream", "auth", "push"];
const serverFolder = (f: string) => (f.startsWith("lib/server/") ? (f.split("/")[2] ?? "") : null);
const isFeature = (f: string) => {
  const folder = serverFolder(f);
  return folder !== null && f.split("/").length > 3 && !LAYERS.includes(folder);
};
const featureOf = (f: string) => (isFeature(f) ? serverFolder(f) : null);
/** The sync worker's read side, which features may use; the worker itself they may not. */
const syncReadSide = (t: string) =>
  ["lib/server/sync/status.ts", "lib/server/sync/freshness.ts", "lib/server/sync/progress.ts"].includes(t);

describe("where code lives", () => {
  it("lib/shared is browser-safe: it imports only lib/shared, lib/contract and packages, never node or server code", () => {
    expect(
      breaches(under("lib/shared"), (t) =>
        pkg(t)
          ? !nodeBuiltin(t) && t !== "pkg:server-only"
          : under("lib/shared")(t) || under("lib/contract")(t),
      ),
    ).toEqual([]);
  });

  it("components import only lib/shared, components/ui, their own folder, another folder's index.ts and the shell (components/*.tsx)", () => {
    expect(
      breaches(under("components"), (t, f) => {
        if (pkg(t))
          return !nodeBuiltin(t) && !["pkg:server-only", "pkg:next/headers", "pkg:next/server"].includes(t);
        const own = f.split("/").length > 2 ? f.split("/").slice(0, 2).join("/") : null;
        return (
          under("lib/shared")(t) ||
          under("components/ui")(t) ||
          (own !== null && under(own)(t)) ||
          /^components\/[^/]+\/index\.ts$/.test(t) ||
          /^components\/[^/]+\.tsx$/.test(t)
        );
      }),
    ).toEqual([]);
  });

  it("route handlers import only lib/server/http, feature modules (sign-in: auth) and lib/shared, and run no SQL", () => {
    const isRoute = (f: string) => f.startsWith("app/api/") && f.endsWith("/route.ts");
    expect(
      breaches(
        isRoute,
        (t) =>
          pkg(t) ||
          under("lib/server/http")(t) ||
          isFeature(t) ||
          under("lib/server/auth")(t) ||
          under("lib/shared")(t),
      ),
    ).toEqual([]);
    expect(production.filter(isRoute).filter((f) => SQL.test(read(f)))).toEqual([]);
  });

  it("pages import components, lib/shared, the page guard and feature modules; never the store or upstream", () => {
    const isPage = (f: string) => f.startsWith("app/") && !f.startsWith("app/api/");
    expect(
      breaches(
        isPage,
        (t) =>
          pkg(t) ||
          under("components")(t) ||
          under("app")(t) ||
          under("lib/shared")(t) ||
          t === "lib/server/http/page-guard.ts" ||
          isFeature(t) ||
          under("lib/server/auth")(t),
      ),
    ).toEqual([]);
  });

  it("only lib/server/store issues SQL against the dashboard store (features may group it in a transaction)", () => {
    const sql = production.filter(
      (f) =>
        (f.startsWith("lib/server/") || f.startsWith("app/") || f.startsWith("components/")) &&
        !under("lib/server/store")(f) &&
        SQL.test(read(f)),
    );
    expect(sql).toEqual([]);
  });

  it("the store imports only lib/db, lib/contract, lib/shared and itself", () => {
    expect(
      breaches(under("lib/server/store"), (t) =>
        pkg(t) ? true : ["lib/db", "lib/contract", "lib/shared", "lib/server/store"].some((d) => under(d)(t)),
      ),
    ).toEqual([]);
  });

  it("upstream/ is used only by the sync worker, feature modules, http/ and the process's root", () => {
    const importers = production.filter((f) =>
      importsOf(f).some((i) => under("lib/server/upstream")(i.target)),
    );
    const allowed = (f: string) =>
      under("lib/server/upstream")(f) ||
      under("lib/server/sync")(f) ||
      under("lib/server/http")(f) ||
      isFeature(f) ||
      ["lib/server/dashboard.ts", "lib/server/startup.ts"].includes(f);
    expect(importers.filter((f) => !allowed(f))).toEqual([]);
  });

  it("feature modules do not import each other's internals (only a folder's index.ts), nor the sync worker (only its read side)", () => {
    expect(
      breaches(isFeature, (t, f) => {
        if (featureOf(t) && featureOf(t) !== featureOf(f)) return t === `lib/server/${featureOf(t)}/index.ts`;
        if (under("lib/server/sync")(t)) return syncReadSide(t);
        return true;
      }),
    ).toEqual([]);
  });

  it("the sync worker imports the store, the upstream client and shared code, never a feature or http/", () => {
    expect(breaches(under("lib/server/sync"), (t) => !isFeature(t) && !under("lib/server/http")(t))).toEqual(
      [],
    );
  });

  it("every module of lib/server is server-only", () => {
    const missing = production.filter(
      (f) => under("lib/server")(f) && !/^import "server-only";$/m.test(read(f)) && !f.endsWith(".sql"),
    );
    expect(missing).toEqual([]);
  });

  it("lib/contract and lib/db stand alone (the Integration API shares them), and the service never imports the console", () => {
    expect(breaches(under("lib/contract"), (t) => pkg(t) || under("lib/contract")(t))).toEqual([]);
    expect(breaches(under("lib/db"), (t) => pkg(t) || under("lib/db")(t))).toEqual([]);
    expect(
      breaches(
        under("integration-api"),
        (t) => pkg(t) || !["lib/server", "lib/shared", "app", "components"].some((d) => under(d)(t)),
      ),
    ).toEqual([]);
  });

  it("pages and components name no /api/ URL: they call an endpoint's declaration (call, urlOf, useEndpoint, useWrite)", () => {
    const isRouteFile = (f: string) => f.startsWith("app/api/") && f.endsWith("/route.ts");
    const literal = /["'`]\/api\//;
    expect(
      production.filter(
        (f) => (under("app")(f) || under("components")(f)) && !isRouteFile(f) && literal.test(read(f)),
      ),
    ).toEqual([]);
  });

  it("route handlers are handle(endpoint, …): no route file reads input or answers by itself", () => {
    const isRouteFile = (f: string) => f.startsWith("app/api/") && f.endsWith("/route.ts");
    const byHand = /\b(route|publicRoute|readBody|readQuery|readParams|answer)\(/;
    expect(production.filter((f) => isRouteFile(f) && byHand.test(read(f)))).toEqual([]);
  });

  it("test doubles and test stores are used by tests and benchmarks only", () => {
    expect(
      breaches(
        () => true,
        (t) => !under("lib/testing")(t),
      ),
    ).toEqual([]);
  });
});

function read(f: string) {
  return readFileSync(join(root, f), "utf8");
}
