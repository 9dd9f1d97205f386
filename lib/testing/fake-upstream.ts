import "server-only";
import type { z } from "zod";
import {
  CheckinListQuery,
  type ErrorCode,
  errorCatalog,
  NoQuery,
  SalesListQuery,
  SalesSummaryQuery,
  TicketListQuery,
  TopupListQuery,
  WristbandListQuery,
} from "@/lib/contract";
import type { FetchLike } from "@/lib/server/upstream/client";
import type { FakeClock } from "./fake-clock";
import { createFakeEvent, type FakeEventOptions } from "./fake-event";

/**
 * An in-process fake of the Integration API's read side, built on the contract's shapes, for the
 * faults the real service will not produce on demand: short and empty pages (records hidden from
 * the key interleaved with visible ones), 429s, 500s and dropped connections, refused cursors, late
 * records whose id falls below a client's cursor, records that change after creation, unknown fields.
 * It counts every request per fixed 60-second window of the read bucket, like the real limiter.
 *
 * Time is a FakeClock the test moves (and the worker's injected sleep moves).
 */

export type FaultKind = "500" | "429" | "network" | "cursor400";
interface Fault {
  kind: FaultKind;
  match: (path: string, query: URLSearchParams) => boolean;
  times: number;
}

export interface FakeUpstreamOptions extends FakeEventOptions {
  apiKey: string;
  clock: FakeClock;
  /** Read requests per 60-second window (default 120). */
  readLimit?: number;
  /** A page scans at most this many records (hidden ones included), fewer at random (default 20). */
  maxScan?: number;
  /** Random faults per request, for the chaos phase. */
  chaos?: { p500?: number; p429?: number; pNetwork?: number };
}

const WINDOW_MS = 60_000;

export function createFakeUpstream(options: FakeUpstreamOptions) {
  const clock = options.clock;
  const { rnd, int, hex, ...fake } = createFakeEvent(options);
  const { event, days, zones, ticketTypes, tickets, wristbands, sales, topups, scans, summary } = fake;
  const readLimit = options.readLimit ?? 120;
  const maxScan = options.maxScan ?? 20;
  const chaos = { p500: 0, p429: 0, pNetwork: 0, ...options.chaos };

  // ── rate limits, faults, counters ──────────────────────────────────────────────────────────
  const windows: { bucket: string; start: number; counted: number }[] = [];
  const current = new Map<string, { bucket: string; start: number; counted: number }>();
  /** requests: all; counted: taken from the read bucket; rateLimited: genuine 429s (quota spent); faults: injected. */
  const stats = { requests: 0, counted: 0, rateLimited: 0, faults: 0, byPath: new Map<string, number>() };
  const faults: Fault[] = [];

  function take(bucket: string, limit: number) {
    let w = current.get(bucket);
    if (!w || clock.ms - w.start >= WINDOW_MS) {
      w = { bucket, start: clock.ms, counted: 0 };
      current.set(bucket, w);
      windows.push(w);
    }
    const allowed = w.counted < limit;
    if (allowed) w.counted++;
    const reset = Math.max(1, Math.ceil((w.start + WINDOW_MS - clock.ms) / 1000));
    return {
      allowed,
      headers: {
        "x-ratelimit-limit": String(limit),
        "x-ratelimit-remaining": String(Math.max(0, limit - w.counted)),
        "x-ratelimit-reset": String(reset),
      },
      reset,
    };
  }

  let requestNo = 0;
  const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: {
        "content-type": "application/json",
        "x-request-id": `req_${(++requestNo).toString(16)}`,
        ...headers,
      },
    });
  const fail = (code: ErrorCode, message: string, headers: Record<string, string> = {}, param?: string) => {
    const { status, type } = errorCatalog[code];
    const requestId = `req_f${(++requestNo).toString(16)}`;
    return new Response(
      JSON.stringify({ error: { type, code, message, ...(param ? { param } : {}), request_id: requestId } }),
      { status, headers: { "content-type": "application/json", "x-request-id": requestId, ...headers } },
    );
  };

  // Unknown fields everywhere: a client must drop them, never fail.
  const decorate = <T extends object>(item: T) => {
    const { hidden: _, ...rest } = item as T & { hidden?: boolean };
    return { ...rest, livemode: false, metadata: { source: "fake" } };
  };
  const list = (data: object[], hasMore: boolean, cursor: string | null, url: string) => ({
    object: "list",
    data: data.map(decorate),
    has_more: hasMore,
    next_cursor: hasMore ? cursor : null,
    url,
    total_count: -1,
  });

  /** Pages like a restricted key: a page scans records in id order, hidden ones included. */
  function page<T extends { id: string; hidden?: boolean }>(
    all: Iterable<T>,
    filter: (x: T) => boolean,
    q: { limit?: number; starting_after?: string },
    url: string,
  ) {
    const candidates = [...all]
      .filter((x) => (!q.starting_after || x.id > q.starting_after) && filter(x))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const scan = Math.min(q.limit ?? 50, int(1, maxScan));
    const scanned = candidates.slice(0, scan);
    const rest = candidates.slice(scan);
    const hasMore = rest.some((x) => !x.hidden);
    const data = scanned.filter((x) => !x.hidden);
    return list(data, hasMore, scanned.length ? scanned[scanned.length - 1].id : null, url);
  }

  const visibleDay = (dayId: string | undefined) => !dayId || days.some((d) => d.id === dayId);
  const since = (at: Date | undefined, field: string) => (x: Record<string, unknown>) =>
    !at || Date.parse(x[field] as string) >= at.getTime();

  function parse<S extends z.ZodType>(schema: S, search: URLSearchParams): z.infer<S> | Response {
    const result = schema.safeParse(Object.fromEntries(search));
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    if (issue.code === "unrecognized_keys") {
      return fail("unknown_parameter", `Unknown parameter ${issue.keys[0]}.`, {}, issue.keys[0]);
    }
    return fail("invalid_parameter", issue.message, {}, String(issue.path[0] ?? ""));
  }

  function route(path: string, search: URLSearchParams, url: string): Response {
    const q = <S extends z.ZodType>(schema: S) => parse(schema, search);
    if (
      path === "/ping" ||
      path === "/event" ||
      path === "/days" ||
      path === "/zones" ||
      path === "/ticket-types"
    ) {
      const r = q(NoQuery);
      if (r instanceof Response) return r;
      if (path === "/event") return reply(200, decorate(event));
      if (path === "/days") return reply(200, { object: "list", data: days.map(decorate) });
      if (path === "/zones") return reply(200, { object: "list", data: zones.map(decorate) });
      if (path === "/ticket-types") return reply(200, { object: "list", data: ticketTypes.map(decorate) });
      return reply(200, {
        object: "ping",
        ok: true,
        environment: "test",
        event: { id: event.id, name: event.name },
        key: {
          id: hex(1),
          name: "fake key",
          scopes: ["event.read", "tickets.read", "cashless.read", "checkins.read", "reports.read"],
          restrictions: { ticket_type_ids: [], day_ids: [] },
          rate_limits: { read: readLimit, write: 20, checkin: 60, access: 120 },
        },
      });
    }
    if (path === "/tickets") {
      const r = q(TicketListQuery);
      if (r instanceof Response) return r;
      return reply(
        200,
        page(
          tickets.values(),
          (x) => (!r.status || x.status === r.status) && since(r.updated_since, "updated_at")(x),
          r,
          url,
        ),
      );
    }
    if (path === "/wristbands") {
      const r = q(WristbandListQuery);
      if (r instanceof Response) return r;
      return reply(
        200,
        page(
          wristbands.values(),
          (x) => (!r.status || x.status === r.status) && since(r.updated_since, "updated_at")(x),
          r,
          url,
        ),
      );
    }
    const m = path.match(/^\/(tickets|wristbands)\/([^/]+)$/);
    if (m) {
      const r = q(NoQuery);
      if (r instanceof Response) return r;
      const code = decodeURIComponent(m[2]);
      if (m[1] === "tickets") {
        const t = [...tickets.values()].find((x) => x.code === code);
        return t ? reply(200, decorate(t)) : fail("ticket_not_found", "No ticket with this code.");
      }
      const w = [...wristbands.values()].find((x) => x.nfc === code || x.uhf === code);
      return w ? reply(200, decorate(w)) : fail("wristband_not_found", "No wristband with this code.");
    }
    if (path === "/transactions" || path === "/topups" || path === "/checkins") {
      const r = q(
        path === "/topups" ? TopupListQuery : path === "/checkins" ? CheckinListQuery : SalesListQuery,
      ) as (z.infer<typeof TopupListQuery> & z.infer<typeof CheckinListQuery>) | Response;
      if (r instanceof Response) return r;
      if (!visibleDay(r.day_id)) return fail("invalid_parameter", "Unknown day.", {}, "day_id");
      const match = (x: { day_id: string; occurred_at: string }) =>
        (!r.day_id || x.day_id === r.day_id) && since(r.since, "occurred_at")(x);
      if (path === "/transactions") return reply(200, page(sales.values(), match, r, url));
      if (path === "/topups")
        return reply(
          200,
          page(topups.values(), (x) => match(x) && (!r.direction || x.direction === r.direction), r, url),
        );
      return reply(
        200,
        page(scans.values(), (x) => match(x) && (!r.zone_id || x.zone?.id === r.zone_id), r, url),
      );
    }
    if (path === "/reports/sales-summary") {
      const r = q(SalesSummaryQuery);
      if (r instanceof Response) return r;
      if (!visibleDay(r.day_id)) return fail("invalid_parameter", "Unknown day.", {}, "day_id");
      return reply(200, { ...summary(r.day_id ?? null), extra_section: { hello: "world" } });
    }
    return fail("route_not_found", `No route ${path}.`);
  }

  const fetch: FetchLike = async (input, init) => {
    stats.requests++;
    const url = new URL(input);
    const path = url.pathname.replace(/^\/v1/, "");
    stats.byPath.set(path, (stats.byPath.get(path) ?? 0) + 1);
    if ((init.method ?? "GET") !== "GET") return fail("method_not_allowed", "The fake is read-only.");
    if (new Headers(init.headers).get("authorization") !== `Bearer ${options.apiKey}`) {
      return fail("invalid_api_key", "Unknown key.");
    }

    const fault = faults.find((f) => f.times > 0 && f.match(path, url.searchParams));
    let kind: FaultKind | null = fault ? fault.kind : null;
    if (fault) fault.times--;
    if (!kind) {
      const roll = rnd();
      if (roll < chaos.pNetwork) kind = "network";
      else if (roll < chaos.pNetwork + chaos.p429) kind = "429";
      else if (roll < chaos.pNetwork + chaos.p429 + chaos.p500) kind = "500";
    }
    if (kind === "network") {
      stats.faults++;
      throw new TypeError("fetch failed (fake: connection reset)");
    }
    if (kind === "429") {
      // Refused before the bucket: nothing counted, as the real limiter does.
      stats.faults++;
      const w = current.get("read");
      const remaining = w && clock.ms - w.start < WINDOW_MS ? Math.max(0, readLimit - w.counted) : readLimit;
      return fail("rate_limit_exceeded", "Too many requests (fake).", {
        "retry-after": "2",
        "x-ratelimit-limit": String(readLimit),
        "x-ratelimit-remaining": String(remaining),
        "x-ratelimit-reset": "2",
      });
    }

    const limit = take("read", readLimit);
    if (!limit.allowed) {
      stats.rateLimited++;
      return fail("rate_limit_exceeded", "Rate limit exceeded.", {
        ...limit.headers,
        "retry-after": String(limit.reset),
      });
    }
    stats.counted++;
    if (kind === "500") {
      stats.faults++;
      return fail("internal_error", "Something broke (fake).", limit.headers);
    }
    if (kind === "cursor400" && url.searchParams.has("starting_after")) {
      stats.faults++;
      return fail("invalid_parameter", "This cursor has expired (fake).", limit.headers, "starting_after");
    }
    const response = route(path, url.searchParams, url.pathname + url.search);
    for (const [name, value] of Object.entries(limit.headers)) response.headers.set(name, value);
    return response;
  };

  return {
    ...fake,
    fetch,
    clock,
    stats,
    readLimit,
    chaos,
    /** Every read window so far: start and the requests it counted. */
    windows: () => windows.filter((w) => w.bucket === "read"),
    /** The next `times` requests matching `match` fail with `kind`. */
    inject(kind: FaultKind, match: Fault["match"] = () => true, times = 1) {
      faults.push({ kind, match, times });
    },
  };
}

export type FakeUpstream = ReturnType<typeof createFakeUpstream>;
