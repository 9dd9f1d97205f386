import { describe, expect, it } from "vitest";
import { UpstreamClient, UpstreamError } from "./client";

const KEY = `eak_test_${"a".repeat(43)}`;
const BASE = "http://upstream.test/v1";
const id = (n: number) => n.toString(16).padStart(24, "0");

interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string | undefined;
}
type Handler = (req: Seen, n: number) => Response | Promise<Response>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-request-id": "req_0abc", ...headers },
  });
const errorBody = (type: string, code: string, message: string, extra: Record<string, string> = {}) => ({
  error: { type, code, message, request_id: "req_deadbeef01", ...extra },
});

const ticket = (n: number) => ({
  object: "ticket",
  id: id(n),
  code: `T-${n}`,
  status: "active",
  ticket_type: { id: id(900), name: "General" },
  attendee: { name: "Ann", email: "ann@example.com", document: null },
  valid_days: [{ id: id(800), name: "Day 1" }],
  extra_zones: [],
  wristband: null,
  checked_in_at: null,
  created_at: "2026-07-10T20:00:00.000Z",
  updated_at: "2026-07-10T20:00:00.000Z",
});
const topup = {
  object: "topup",
  id: id(77),
  direction: "topup",
  amount: 2000,
  previous_balance: 0,
  new_balance: 2000,
  payment_method: "card",
  nature: "paid",
  status: "completed",
  wristband_id: id(5),
  day_id: id(800),
  device_id: null,
  occurred_at: "2026-07-10T20:00:00.000Z",
  created_at: "2026-07-10T20:00:00.000Z",
};

/** A client over a scripted fetch; every request is recorded, every sleep too. */
function setup(handler: Handler, options: { maxAttempts?: number } = {}) {
  const seen: Seen[] = [];
  const sleeps: number[] = [];
  let clock = Date.parse("2026-07-10T20:00:00.000Z");
  const client = new UpstreamClient({
    baseUrl: `${BASE}/`,
    apiKey: KEY,
    now: () => new Date(clock),
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    maxAttempts: options.maxAttempts,
    fetch: async (input, init) => {
      const req: Seen = {
        method: init.method ?? "GET",
        url: new URL(input),
        headers: new Headers(init.headers),
        body: init.body as string | undefined,
      };
      seen.push(req);
      return handler(req, seen.length);
    },
  });
  return { client, seen, sleeps };
}

describe("UpstreamClient", () => {
  it("sends the key as a Bearer token to the versioned base address", async () => {
    const { client, seen } = setup(() => json(200, ticket(1)));
    await client.ticketByCode("T 1/x");
    expect(seen[0].headers.get("authorization")).toBe(`Bearer ${KEY}`);
    expect(seen[0].url.pathname).toBe("/v1/tickets/T%201%2Fx");
    expect(seen[0].method).toBe("GET");
  });

  it("builds an UpstreamError from the error envelope, request_id included", async () => {
    const { client, seen } = setup(() =>
      json(
        404,
        errorBody("not_found_error", "ticket_not_found", "No ticket with this code.", { param: "code" }),
      ),
    );
    const err = await client.ticketByCode("nope").catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({
      status: 404,
      type: "not_found_error",
      code: "ticket_not_found",
      message: "No ticket with this code.",
      param: "code",
      request_id: "req_deadbeef01",
    });
    expect(seen).toHaveLength(1); // a 4xx is final
  });

  it("makes a synthetic UpstreamError for a non-JSON answer and for a network failure", async () => {
    const html = setup(() => new Response("<h1>Bad gateway</h1>", { status: 400 }));
    const err = await html.client.event().catch((e) => e);
    expect(err).toMatchObject({ status: 400, type: "api_error", code: "invalid_response" });

    const down = setup(() => {
      throw new TypeError("fetch failed");
    });
    const net = await down.client.event().catch((e) => e);
    expect(net).toMatchObject({ status: 0, code: "network_error", isNetwork: true });
    expect(down.seen).toHaveLength(4); // a GET is retried, bounded
    expect(down.sleeps).toEqual([187.5, 375, 750]); // exponential, jitter at 0.5 → ¾ of each step
  });

  it("on 429 waits retry-after seconds, then succeeds", async () => {
    const { client, seen, sleeps } = setup((_req, n) =>
      n === 1
        ? json(429, errorBody("rate_limit_error", "rate_limit_exceeded", "Slow down."), {
            "retry-after": "7",
            "x-ratelimit-limit": "120",
            "x-ratelimit-remaining": "0",
            "x-ratelimit-reset": "7",
          })
        : json(200, ticket(1), {
            "x-ratelimit-limit": "120",
            "x-ratelimit-remaining": "119",
            "x-ratelimit-reset": "60",
          }),
    );
    const t = await client.ticketByCode("T-1");
    expect(t.id).toBe(id(1));
    expect(seen).toHaveLength(2);
    expect(sleeps).toEqual([7000]);
    expect(client.readQuota).toMatchObject({ limit: 120, remaining: 119 });
    expect(client.readQuota!.resetAt.getTime() - client.readQuota!.observedAt.getTime()).toBe(60_000);
    expect(client.stats).toMatchObject({ requests: 2, rateLimited: 1 });
  });

  it("gives up on 429 after the bounded retries", async () => {
    const { client, seen } = setup(() =>
      json(429, errorBody("rate_limit_error", "rate_limit_exceeded", "Slow down."), { "retry-after": "1" }),
    );
    const err = await client.days().catch((e) => e);
    expect(err).toMatchObject({ status: 429, code: "rate_limit_exceeded", retryAfter: 1 });
    expect(seen).toHaveLength(4); // 1 + 3 retries
  });

  it("with maxWaitMs, a 429 that asks for a longer wait is thrown at once (no silent wait)", async () => {
    const { client, seen, sleeps } = setup(() =>
      json(429, errorBody("rate_limit_error", "rate_limit_exceeded", "Slow down."), { "retry-after": "37" }),
    );
    const err = await client.ticketByCode("T-1", { maxWaitMs: 2000 }).catch((e) => e);
    expect(err).toMatchObject({ status: 429, code: "rate_limit_exceeded", retryAfter: 37 });
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("with maxWaitMs, short waits are made while their sum stays within it", async () => {
    const { client, seen, sleeps } = setup(() =>
      json(429, errorBody("rate_limit_error", "rate_limit_exceeded", "Slow down."), { "retry-after": "1" }),
    );
    const err = await client.ticketByCode("T-1", { maxWaitMs: 2500 }).catch((e) => e);
    expect(err).toMatchObject({ status: 429, retryAfter: 1 });
    expect(sleeps).toEqual([1000, 1000]);
    expect(seen).toHaveLength(3);
  });

  it("retries a GET answered 500, then returns the 200", async () => {
    const { client, seen, sleeps } = setup((_req, n) =>
      n === 1 ? json(500, errorBody("api_error", "internal_error", "Oops.")) : json(200, ticket(2)),
    );
    expect((await client.ticketByCode("T-2")).code).toBe("T-2");
    expect(seen).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it("retries a POST after a network failure with the same Idempotency-Key", async () => {
    const { client, seen } = setup((_req, n) => {
      if (n === 1) throw new TypeError("socket hang up");
      return json(201, topup);
    });
    const result = await client.createTopup({ code: "NFC1", amount: 2000, payment_method: "card" });
    expect(result.id).toBe(id(77));
    expect(seen).toHaveLength(2);
    const keys = seen.map((r) => r.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(JSON.parse(seen[1].body!)).toEqual({ code: "NFC1", amount: 2000, payment_method: "card" });
    expect(seen[0].headers.get("content-type")).toBe("application/json");
  });

  it("uses the caller's Idempotency-Key, and a new one for each logical call", async () => {
    const { client, seen } = setup(() => json(200, ticket(3)));
    await client.cancelTicket("T-3", { idempotencyKey: "11111111-1111-4111-8111-111111111111" });
    await client.cancelTicket("T-3");
    await client.cancelTicket("T-3");
    const keys = seen.map((r) => r.headers.get("idempotency-key"));
    expect(keys[0]).toBe("11111111-1111-4111-8111-111111111111");
    expect(new Set(keys).size).toBe(3);
    expect(seen[0].url.pathname).toBe("/v1/tickets/T-3/cancel");
    expect(seen[0].body).toBeUndefined();
  });

  it("does not retry a POST answered 409", async () => {
    const { client, seen } = setup(() =>
      json(409, errorBody("conflict_error", "ticket_already_used", "The ticket is used.")),
    );
    const err = await client.cancelTicket("T-4").catch((e) => e);
    expect(err).toMatchObject({ status: 409, code: "ticket_already_used" });
    expect(seen).toHaveLength(1);
  });

  it("after a lost POST, waits out idempotency_key_in_use and gets the replayed answer", async () => {
    const { client, seen } = setup((_req, n) => {
      if (n === 1) throw new TypeError("socket hang up");
      if (n === 2) return json(409, errorBody("conflict_error", "idempotency_key_in_use", "Still running."));
      return json(201, topup, { "idempotent-replayed": "true" });
    });
    await client.createTopup({ code: "NFC1", amount: 2000, payment_method: "card" });
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((r) => r.headers.get("idempotency-key"))).size).toBe(1);
  });

  it("does not retry a POST answered 4xx even with 500s allowed", async () => {
    const { client, seen } = setup((_req, n) =>
      n === 1
        ? json(503, errorBody("api_error", "internal_error", "Down."))
        : json(422, errorBody("invalid_request_error", "idempotency_key_reused", "Other body.")),
    );
    const err = await client.reviewWristband("NFC9").catch((e) => e);
    expect(err.code).toBe("idempotency_key_reused");
    expect(seen).toHaveLength(2);
    expect(JSON.parse(seen[0].body!)).toEqual({ decision: "keep" });
  });

  it("pages() follows has_more through short and empty pages and stops at has_more false", async () => {
    // 7 tickets served 2, 0, 1, 3, 1 at a time with limit 200: page size says nothing.
    const cuts = [2, 0, 1, 3, 1];
    const all = [1, 2, 3, 4, 5, 6, 7].map((n) => ticket(n * 10));
    const { client, seen } = setup((req) => {
      const after = req.url.searchParams.get("starting_after");
      const call = (seen.length - 1) % cuts.length;
      const start = after ? all.findIndex((t) => t.id > after) : 0;
      const take = cuts[call];
      const data = all.slice(start, start + take);
      const hasMore = start + take < all.length;
      // An empty page still moves the cursor (past records the key cannot see).
      const cursor = data.length ? data[data.length - 1].id : id(Number.parseInt(after ?? "0", 16) + 1);
      return json(200, { object: "list", data, has_more: hasMore, next_cursor: hasMore ? cursor : null });
    });
    const pages = [];
    for await (const page of client.pages("/tickets", { limit: 200, status: "active" })) pages.push(page);
    expect(pages.map((p) => p.data.length)).toEqual(cuts);
    expect(pages.flatMap((p) => p.data.map((t) => t.id))).toEqual(all.map((t) => t.id));
    expect(seen[0].url.searchParams.get("starting_after")).toBeNull();
    expect(seen[0].url.searchParams.get("status")).toBe("active");
    expect(seen[1].url.searchParams.get("starting_after")).toBe(id(20));
    expect(seen.every((r) => r.url.searchParams.get("limit") === "200")).toBe(true);
    expect(seen).toHaveLength(5);

    const items = [];
    for await (const t of client.items("/tickets")) items.push(t);
    expect(items.map((t) => t.id)).toEqual(all.map((t) => t.id));
  });

  it("tolerates unknown fields and drops them", async () => {
    const { client } = setup(() =>
      json(200, {
        object: "list",
        data: [{ ...ticket(1), loyalty_tier: "gold", attendee: { ...ticket(1).attendee, pronouns: "she" } }],
        has_more: false,
        next_cursor: null,
        url: "/v1/tickets",
      }),
    );
    const page = await client.tickets();
    expect(page.data[0].code).toBe("T-1");
    expect(page.data[0]).not.toHaveProperty("loyalty_tier");
    expect(page.data[0].attendee).not.toHaveProperty("pronouns");
  });

  it("rejects an answer that breaks the contract as invalid_response, without retrying", async () => {
    const { client, seen } = setup(() => json(200, { ...ticket(1), status: "exploded" }));
    const err = await client.ticketByCode("T-1").catch((e) => e);
    expect(err).toMatchObject({ status: 200, code: "invalid_response", request_id: "req_0abc" });
    expect(err.message).toContain("status");
    expect(seen).toHaveLength(1);
  });

  it("encodes list filters: dates as ISO, arrays joined", async () => {
    const { client, seen } = setup(() =>
      json(200, {
        object: "topup_bonus_quote",
        data: [{ amount: 2000, bonus_amount: 0, rule: null, next: null }],
      }),
    );
    await client.quote({ amounts: [2000, 5000], code: "NFC1" });
    expect(seen[0].url.searchParams.get("amounts")).toBe("2000,5000");
    const list = setup(() => json(200, { object: "list", data: [], has_more: false, next_cursor: null }));
    await list.client.transactions({ since: new Date("2026-07-10T20:00:00Z"), day_id: id(800) });
    expect(list.seen[0].url.search).toBe(`?since=2026-07-10T20%3A00%3A00.000Z&day_id=${id(800)}`);
  });

  it("awaits beforeAttempt before each attempt, retries included", async () => {
    const calls: string[] = [];
    const { client } = setup((_req, n) =>
      n === 1 ? json(502, errorBody("api_error", "internal_error", "Oops.")) : json(200, ticket(1)),
    );
    await client.ticketByCode("T-1", { beforeAttempt: (bucket) => void calls.push(bucket) });
    expect(calls).toEqual(["read", "read"]);
  });
});
