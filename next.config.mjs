/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/WASM database drivers load from node_modules at run time instead of being bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
