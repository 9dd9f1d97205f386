import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { BlockList, isIPv4, isIPv6 } from "node:net";
import type { ApiKeyView, CreatedKey, CreateKeyRequest } from "../../lib/contract/admin";
import type { Clock } from "../../lib/contract/clock";
import { defaultRateLimits, type Environment, type Scope, writeScopes } from "../../lib/contract/resources";
import { ApiError } from "../errors";
import { newId } from "../ids";
import type { Db } from "../store/db";
import { type ApiKeyRow, keysStore } from "../store/keys-store";
import type { Visibility } from "../store/sql";
import type { Catalog } from "./catalog-service";

const KEY_FORMAT = /^eak_(live|test)_[A-Za-z0-9_-]{43}$/;

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function keyStatus(row: ApiKeyRow, now: Date): ApiKeyView["status"] {
  if (row.revoked_at) return "revoked";
  if (row.expires_at && Date.parse(row.expires_at) <= now.getTime()) return "expired";
  if (needsActivation(row.scopes) && !row.activated_at) return "pending_activation";
  return "active";
}

function needsActivation(scopes: Scope[]): boolean {
  return scopes.some((s) => writeScopes.includes(s));
}

export function hasScope(scopes: Scope[], required: Scope): boolean {
  return scopes.includes("*") || scopes.includes(required);
}

export function visibilityOf(row: ApiKeyRow): Visibility {
  return {
    ticketTypeIds: row.restricted_ticket_type_ids.length ? row.restricted_ticket_type_ids : null,
    dayIds: row.restricted_day_ids.length ? row.restricted_day_ids : null,
  };
}

/** Whether `ip` is in the key's allow-list (addresses or CIDR blocks, IPv4 or IPv6). */
export function ipAllowed(allowed: string[], ip: string): boolean {
  if (allowed.length === 0) return true;
  const address = ip.startsWith("::ffff:") && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  const family = isIPv4(address) ? "ipv4" : isIPv6(address) ? "ipv6" : null;
  if (!family) return false;
  const list = new BlockList();
  for (const entry of allowed) {
    const [base, prefix] = entry.split("/");
    const type = isIPv4(base) ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(base, type);
    else list.addSubnet(base, Number(prefix), type);
  }
  return list.check(address, family);
}

export function toKeyView(row: ApiKeyRow, now: Date): ApiKeyView {
  return {
    object: "api_key",
    id: row.id,
    name: row.name,
    key_hint: row.key_hint,
    environment: row.environment,
    scopes: row.scopes,
    restrictions: { ticket_type_ids: row.restricted_ticket_type_ids, day_ids: row.restricted_day_ids },
    rate_limits: row.rate_limits,
    allowed_ips: row.allowed_ips,
    expires_at: row.expires_at,
    status: keyStatus(row, now),
    activated_at: row.activated_at,
    revoked_at: row.revoked_at,
    created_at: row.created_at,
  };
}

export class KeysService {
  /**
   * Known keys by hash. Only for the embedded store: one process owns it (lib/db locks it), so every
   * activation and revocation goes through this service and clears the entry — a revoked key still
   * fails on its very next request. On PostgreSQL other instances may revoke, so each request reads.
   */
  private readonly known: Map<string, ApiKeyRow> | null;

  constructor(
    private readonly db: Db,
    private readonly environment: Environment,
    private readonly catalog: Catalog,
    private readonly clock: Clock,
  ) {
    this.known = db.kind === "pglite" ? new Map() : null;
  }

  async create(request: CreateKeyRequest, now = this.clock()): Promise<CreatedKey> {
    this.checkRequest(request, now);
    const key = `eak_${this.environment}_${randomBytes(32).toString("base64url")}`;
    const scopes = [...new Set(request.scopes)];
    const row = await keysStore.insert(this.db, {
      id: newId(now),
      name: request.name,
      key_hash: hashKey(key),
      key_hint: key.slice(0, 14),
      environment: this.environment,
      scopes,
      restricted_ticket_type_ids: [...new Set(request.restrictions?.ticket_type_ids ?? [])],
      restricted_day_ids: [...new Set(request.restrictions?.day_ids ?? [])],
      rate_limits: { ...defaultRateLimits, ...request.rate_limits },
      allowed_ips: request.allowed_ips ?? [],
      expires_at: request.expires_at ? new Date(request.expires_at) : null,
      // Read-only keys are usable at once; write scopes wait for the organiser's activation.
      activated_at: !needsActivation(scopes) || request.activate ? now : null,
      created_at: now,
    });
    return { ...toKeyView(row, now), key };
  }

  /** A key that could never work is refused rather than issued. */
  private checkRequest(request: CreateKeyRequest, now: Date) {
    if (request.expires_at && new Date(request.expires_at) <= now) {
      throw new ApiError("invalid_parameter", "expires_at must be in the future.", "expires_at");
    }
    (request.restrictions?.ticket_type_ids ?? []).forEach((id, i) => {
      if (!this.catalog.typeById.has(id)) {
        throw new ApiError(
          "invalid_parameter",
          "No ticket type with this id.",
          `restrictions.ticket_type_ids[${i}]`,
        );
      }
    });
    (request.restrictions?.day_ids ?? []).forEach((id, i) => {
      if (!this.catalog.dayById.has(id)) {
        throw new ApiError("invalid_parameter", "No event day with this id.", `restrictions.day_ids[${i}]`);
      }
    });
  }

  async list(): Promise<ApiKeyView[]> {
    const now = this.clock();
    return (await keysStore.list(this.db)).map((row) => toKeyView(row, now));
  }

  async activate(id: string): Promise<ApiKeyView> {
    const existing = await this.require(id);
    if (existing.revoked_at) throw new ApiError("key_revoked", "A revoked key cannot be activated.");
    const now = this.clock();
    const row = (await keysStore.activate(this.db, id, now))!;
    this.known?.delete(row.key_hash);
    return toKeyView(row, now);
  }

  async revoke(id: string): Promise<ApiKeyView> {
    await this.require(id);
    const now = this.clock();
    const row = (await keysStore.revoke(this.db, id, now))!;
    this.known?.delete(row.key_hash);
    return toKeyView(row, now);
  }

  private async findByHash(hash: string): Promise<ApiKeyRow | undefined> {
    const cached = this.known?.get(hash);
    if (cached) return cached;
    const row = await keysStore.findByHash(this.db, hash);
    if (row && this.known) {
      if (this.known.size >= 10_000) this.known.clear();
      this.known.set(hash, row);
    }
    return row;
  }

  private async require(id: string): Promise<ApiKeyRow> {
    const row = /^[0-9a-f]{24}$/.test(id) ? await keysStore.findById(this.db, id) : undefined;
    if (!row) throw new ApiError("key_not_found", "No API key with this id.", "id");
    return row;
  }

  /**
   * Resolves an Authorization header to a usable key, in the decided order: format, existence,
   * revocation, expiry, IP allow-list, activation. Scope and rate limit are checked by the caller.
   */
  async authenticate(authorization: string | undefined, ip: string, now = this.clock()): Promise<ApiKeyRow> {
    const match = /^Bearer (\S+)$/i.exec(authorization ?? "");
    const key = match?.[1];
    if (!key || !KEY_FORMAT.test(key)) {
      throw new ApiError("missing_api_key", "Send your API key as 'Authorization: Bearer eak_...'.");
    }
    const hash = hashKey(key);
    const row = key.startsWith(`eak_${this.environment}_`) ? await this.findByHash(hash) : undefined;
    if (!row || !timingSafeEqual(Buffer.from(row.key_hash, "hex"), Buffer.from(hash, "hex"))) {
      throw new ApiError("invalid_api_key", "This API key does not exist.");
    }
    if (row.revoked_at) throw new ApiError("revoked_api_key", "This API key was revoked.");
    if (row.expires_at && Date.parse(row.expires_at) <= now.getTime())
      throw new ApiError("expired_api_key", "This API key has expired.");
    if (!ipAllowed(row.allowed_ips, ip)) {
      throw new ApiError("ip_not_allowed", "Requests from this IP address are not allowed for this key.");
    }
    if (needsActivation(row.scopes) && !row.activated_at) {
      throw new ApiError(
        "key_pending_activation",
        "This key has write scopes and awaits activation by the organiser.",
      );
    }
    return row;
  }
}
