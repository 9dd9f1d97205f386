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
    /** Clock of the rate limiter's windows, in ms (default Date.now; benchmarks pass a virtual one). */
    clock?: () => number;
  },
): Promise<Services> {
  const catalog = await loadCatalog(db);
  const reads = new ReadService(db, catalog);
  return {
    db,
    environment: options.environment,
    catalog,
    keys: new KeysService(db, options.environment, catalog),
    reads,
    writes: new WriteService(catalog, reads),
    limiter: new RateLimiter(options.clock),
    adminToken: options.adminToken,
    trustProxyHops: options.trustProxyHops ?? 0,
  };
}
