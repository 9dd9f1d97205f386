import type { Clock } from "../../lib/contract/clock";
import type { Environment } from "../../lib/contract/resources";
import type { Catalog } from "../services/catalog-service";
import type { KeysService } from "../services/keys-service";
import type { ReadService } from "../services/read-service";
import type { WriteService } from "../services/write-service";
import type { Db } from "../store/db";
import type { ApiKeyRow } from "../store/keys-store";
import type { Visibility } from "../store/sql";
import type { RateLimiter } from "./rate-limiter";

/** Everything a request handler may reach, built once per server. */
export interface Services {
  db: Db;
  environment: Environment;
  catalog: Catalog;
  keys: KeysService;
  reads: ReadService;
  writes: WriteService;
  limiter: RateLimiter;
  adminToken: string;
  /** The service's one clock: every "now" of a request reads it. */
  clock: Clock;
  /** Reverse proxies whose X-Forwarded-For entries are trusted. */
  trustProxyHops: number;
}

export interface AuthenticatedKey {
  row: ApiKeyRow;
  visibility: Visibility;
}

export type AppEnv = {
  Variables: {
    requestId: string;
    services: Services;
    apiKey: AuthenticatedKey;
    /** The claimed Idempotency-Key of a write request. */
    idempotencyKey: string;
  };
};
