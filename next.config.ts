import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { IMPORT_MAX_BYTES } from "./lib/shared/api/limits";

const nextConfig: NextConfig = {
  // Native/WASM database drivers, and pdfkit (its font metrics), load from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pdfkit"],
  poweredByHeader: false,
  // The browser suite's build (BUILD_TYPECHECK=off, set by playwright.config.ts) skips Next's own
  // typecheck: `npm test` has checked the whole project, tests included, with tsc just before.
  typescript: { ignoreBuildErrors: process.env.BUILD_TYPECHECK === "off" },
  typedRoutes: false,
  experimental: {
    // With a proxy (proxy.ts) the framework keeps at most this much of a request body and silently
    // drops the rest (from the chunk that crosses it). A megabyte above the console's own largest
    // limit — more than any socket chunk — so that a body past the console's limit still arrives
    // past it, and the console's check (lib/server/http/input.ts, 413 with the limit) answers.
    proxyClientMaxBodySize: IMPORT_MAX_BYTES + 1024 * 1024,
  },
};

// The language of each request: lib/server/i18n/request.ts (no locale in the URL; it is per user).
const withNextIntl = createNextIntlPlugin("./lib/server/i18n/request.ts");

export default withNextIntl(nextConfig);
