import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { RouteModule } from "./console-harness";

/** Every app/api/**\/route.ts: its path (`/api/…`, dynamic segments as `[name]`) and its module, by path. */
export async function routeModules(): Promise<{ path: string; module: RouteModule }[]> {
  const root = join(process.cwd(), "app/api");
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name === "route.ts") files.push(join(dir, entry.name));
    }
  };
  walk(root);
  return Promise.all(
    files.sort().map(async (file) => ({
      path: `/api/${relative(root, file).replace(/\/?route\.ts$/, "")}`,
      module: (await import(file)) as RouteModule,
    })),
  );
}
