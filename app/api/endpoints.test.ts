import { describe, expect, it } from "vitest";
import { refreshOptions } from "@/components/ui/use-endpoint";
import { allEndpoints } from "@/lib/shared/api/endpoints";
import { pathParams } from "@/lib/shared/api/endpoints/define";
import { pushTopics } from "@/lib/shared/api/push";
import { permissions } from "@/lib/shared/permissions";
import { routeModules } from "@/lib/testing/route-modules";

/**
 * Every endpoint is declared once (lib/shared/api/endpoints) and served once: each method a route
 * file exports is `handle(declaration)` of exactly the declaration of its method and path, and
 * every declaration has its route file.
 */

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** `/api/tickets/[code]/cancel` as declared: `/api/tickets/{code}/cancel`. */
const declaredPath = (filePath: string) => filePath.replace(/\[(\w+)\]/g, "{$1}");

describe("endpoint declarations", () => {
  it("each route file's methods are handle() of the declaration of that method and path; each declaration is served once", async () => {
    const served: string[] = [];
    const mismatches: string[] = [];
    for (const { path, module } of await routeModules()) {
      for (const name of Object.keys(module)) {
        const handler = module[name as (typeof METHODS)[number]] as {
          endpoint?: { name: string; method: string; path: string };
        };
        if (!METHODS.includes(name as (typeof METHODS)[number])) continue;
        const e = handler?.endpoint;
        if (!e) mismatches.push(`${name} ${path}: not made by handle()`);
        else if (e.method !== name || e.path !== declaredPath(path))
          mismatches.push(`${name} ${path}: serves ${e.name} (${e.method} ${e.path})`);
        else served.push(e.name);
      }
    }
    expect(mismatches).toEqual([]);
    expect(served.sort()).toEqual(allEndpoints.map((e) => e.name).sort());
  });

  it("names, and method with path, are unique; a path's {params} are the params schema's", () => {
    const names = allEndpoints.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    const routes = allEndpoints.map((e) => `${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    for (const e of allEndpoints) {
      const shape = (e.params as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
      expect(Object.keys(shape).sort(), e.name).toEqual(pathParams(e.path).sort());
    }
  });

  it("every permission declared is one of the permission table's", () => {
    const unknown = allEndpoints
      .filter((e) => e.permission !== "public" && e.permission !== "signed-in")
      .filter((e) => !Object.hasOwn(permissions, e.permission))
      .map((e) => `${e.name}: ${e.permission}`);
    expect(unknown).toEqual([]);
  });

  it("reads refresh by declaration and writes are read once; downloads are reads", () => {
    for (const e of allEndpoints) {
      if (e.method !== "GET") expect(e.refresh, e.name).toBe("once");
      if (typeof e.answer === "string") expect(e.method, e.name).toBe("GET");
    }
  });

  it("reads of the upstream, live and spending the user's lookups, never poll: they are asked again only when someone asks", () => {
    // The handlers that spend a lookup (lib/server/http/lookup-budget.ts) for each read: the search,
    // the ticket list, a ticket, a wristband and its sales, the desk's bonus quote.
    const upstreamReads = [
      "gate.search",
      "gate.tickets",
      "gate.ticket",
      "gate.wristband",
      "gate.wristband_sales",
      "desk.quote",
    ];
    const declared = allEndpoints.filter((e) => e.refresh === "lookup").map((e) => e.name);
    expect(declared.sort()).toEqual([...upstreamReads].sort());
    expect(refreshOptions("lookup")).toEqual({ refetchInterval: false, refetchOnWindowFocus: false });
    expect(refreshOptions("live").refetchInterval).toBeTypeOf("function");
  });

  it("every live read declares the push topics that refresh it (the poll stays the floor); nothing else does", () => {
    for (const e of allEndpoints) {
      if (e.refresh !== "live") {
        expect(e.pushedBy, e.name).toBeUndefined();
        continue;
      }
      expect(e.pushedBy, e.name).toBeDefined();
      for (const topic of e.pushedBy!) expect(pushTopics, e.name).toContain(topic);
      expect(new Set(e.pushedBy).size, e.name).toBe(e.pushedBy!.length);
    }
    // The screens that show the mirror's records are told at once when a tail poll wrote some.
    const pushed = (topic: string) =>
      allEndpoints.filter((e) => e.pushedBy?.includes(topic as never)).map((e) => e.name);
    expect(pushed("sales")).toEqual(expect.arrayContaining(["live.overview", "live.sales", "night.report"]));
    expect(pushed("alerts")).toEqual(expect.arrayContaining(["alerts.list", "alerts.count"]));
    expect(pushed("night")).toContain("night.report");
    // Every topic refreshes something.
    for (const topic of pushTopics) expect(pushed(topic), topic).not.toEqual([]);
  });
});
