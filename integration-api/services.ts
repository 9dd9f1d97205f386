import { type Clock, systemClock } from "../lib/contract/clock";
import type { Environment } from "../lib/contract/resources";
import type { Services } from "./http/context";
import { RateLimiter } from "./http/rate-limiter";
import { loadCatalog } from "./services/catalog-service";
import { KeysService } from "./services/keys-service";
import { ReadService } from "./services/read-service";
import { WriteService } from "./services/write-service";
import type { Db } from "./store/db";

/** Wires the service layer over one store. The catalog must already be seeded. */
export async function createServices(
  db: Db,
  options: {
    environment: Environment;
    adminToken: string;
    trustProxyHops?: number;
    /**
     * The service's one clock (default the system clock; the sandbox's can start at a chosen time):
     * what writes stamp as now, what expiries and rate-limit windows are measured against.
     */
    clock?: Clock;
  },
): Promise<Services> {
  const catalog = await loadCatalog(db);
  const clock = options.clock ?? systemClock;
  const reads = new ReadService(db, catalog, clock);
  return {
    db,
    environment: options.environment,
    catalog,
    keys: new KeysService(db, options.environment, catalog, clock),
    reads,
    writes: new WriteService(catalog, reads, clock),
    limiter: new RateLimiter(() => clock().getTime()),
    clock,
    adminToken: options.adminToken,
    trustProxyHops: options.trustProxyHops ?? 0,
  };
}
