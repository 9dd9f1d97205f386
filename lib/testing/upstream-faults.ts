import { type ErrorCode, errorCatalog } from "@/lib/contract";

/**
 * Fault hooks in front of the real Integration API in-process (its `app.request`): a fetch that
 * the dashboard's upstream client uses, for what the real service will not do on demand. A test
 * arms a fault for the requests matching a pattern, a number of times; chaos draws faults at
 * random from a seeded source. Everything else reaches the real service unchanged (its routes,
 * rate limiter, pagination and summary). Every request is recorded: path, query, the clock's time,
 * the ids each list page carried, and how much of the key's read window each answer said was used.
 */

export type FaultKind =
  /** Reaches the service (its limiter counts it); the answer is replaced by a 500. */
  | "500"
  /** Refused before the service, `retry-after: 2`, as a limiter's refusal (not counted). */
  | "429"
  /** The connection drops before any answer. */
  | "network"
  /** No answer until the client gives up (its timeout or abort signal). */
  | "hang"
  /** A request with `starting_after` reaches the service; the answer is a 400 refusing the cursor. */
  | "cursor400"
  /**
   * A list page cut to its first half, `has_more` true and `next_cursor` its last item; a page of
   * one item after a cursor comes empty, `has_more` true, its cursor unchanged (a restricted
   * upstream that scanned only records the key may not see).
   */
  | "short";

export interface RecordedRequest {
  path: string;
  query: URLSearchParams;
  /** The clock's time when it was sent. */
  at: number;
}

export type RequestMatch = (path: string, query: URLSearchParams) => boolean;
type Json = Record<string, unknown>;

interface Armed {
  match: RequestMatch;
  times: number;
}

const JSON_HEADERS = { "content-type": "application/json" };

export function withFaults(
  service: (url: string, init: RequestInit) => Promise<Response>,
  options: { now: () => Date; random: () => number },
) {
  const faults: (Armed & { kind: FaultKind })[] = [];
  const edits: (Armed & { edit: (body: Json) => Json })[] = [];
  const hooks: (Armed & { action: () => Promise<void> })[] = [];
  /** Chances per request: 500, 429, dropped connection; and of a short page per list answer. */
  const chaos = { p500: 0, p429: 0, pNetwork: 0, pShort: 0 };
  /** requests: all; faults: injected; rateLimited: the service's own 429s (its quota spent). */
  const stats = { requests: 0, faults: 0, rateLimited: 0, byPath: new Map<string, number>() };
  const requests: RecordedRequest[] = [];
  const listed = new Map<string, string[]>();
  /** Per answer from the service: how many reads of the key's current window were used. */
  const used: number[] = [];
  let lastLimit: { limit: string; remaining: string; resetAt: number } | null = null;
  let faultNo = 0;

  const take = <T extends Armed>(list: T[], path: string, query: URLSearchParams): T | undefined => {
    const found = list.find((f) => f.times > 0 && f.match(path, query));
    if (found) found.times--;
    return found;
  };

  const fail = (code: ErrorCode, message: string, headers: Record<string, string>, param?: string) => {
    const { status, type } = errorCatalog[code];
    // The contract's form (req_ and hex); "fa" marks the hook's own answers.
    const requestId = `req_fa${(++faultNo).toString(16).padStart(6, "0")}`;
    stats.faults++;
    return new Response(
      JSON.stringify({ error: { type, code, message, ...(param ? { param } : {}), request_id: requestId } }),
      { status, headers: { ...JSON_HEADERS, "x-request-id": requestId, ...headers } },
    );
  };

  const limitHeaders = (response: Response) => {
    const headers: Record<string, string> = {};
    for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    return headers;
  };

  /** Notes what the service's answer says of the read window, and the ids a list page carried. */
  async function observe(path: string, response: Response) {
    const limit = response.headers.get("x-ratelimit-limit");
    const remaining = response.headers.get("x-ratelimit-remaining");
    const reset = Number(response.headers.get("x-ratelimit-reset"));
    if (response.status === 429) stats.rateLimited++;
    else if (limit !== null && remaining !== null) {
      used.push(Number(limit) - Number(remaining));
      lastLimit = { limit, remaining, resetAt: options.now().getTime() + reset * 1000 };
    }
    if (!response.ok) return;
    const body = (await response.clone().json()) as { object?: string; data?: { id: string }[] };
    if (body.object === "list" && body.data?.every((x) => typeof x.id === "string"))
      listed.set(path, [...(listed.get(path) ?? []), ...body.data.map((x) => x.id)]);
  }

  async function edited(response: Response, edit: (body: Json) => Json): Promise<Response> {
    const body = edit((await response.json()) as Json);
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return new Response(JSON.stringify(body), { status: response.status, headers });
  }

  const cutShort =
    (query: URLSearchParams) =>
    (body: Json): Json => {
      const data = body.data as { id: string }[];
      const after = query.get("starting_after");
      if (data.length === 1 && after) return { ...body, data: [], has_more: true, next_cursor: after };
      if (data.length < 2) return body;
      const kept = data.slice(0, Math.ceil(data.length / 2));
      return { ...body, data: kept, has_more: true, next_cursor: kept.at(-1)!.id };
    };

  function draw(path: string, query: URLSearchParams): FaultKind | null {
    const armed = take(faults, path, query);
    if (armed) return armed.kind;
    const roll = options.random();
    if (roll < chaos.pNetwork) return "network";
    if (roll < chaos.pNetwork + chaos.p429) return "429";
    if (roll < chaos.pNetwork + chaos.p429 + chaos.p500) return "500";
    return null;
  }

  const fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const url = new URL(input);
    const path = url.pathname.replace(/^\/v1/, "");
    const query = url.searchParams;
    stats.requests++;
    stats.byPath.set(path, (stats.byPath.get(path) ?? 0) + 1);
    requests.push({ path, query, at: options.now().getTime() });
    const hook = take(hooks, path, query);
    if (hook) await hook.action();

    const kind = draw(path, query);
    if (kind === "network") {
      stats.faults++;
      throw new TypeError("fetch failed (fault hook: connection reset)");
    }
    if (kind === "hang") {
      stats.faults++;
      return new Promise<Response>((_, reject) => {
        const signal = init.signal;
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    }
    if (kind === "429") {
      const seen = lastLimit as { limit: string; remaining: string; resetAt: number } | null;
      const window: Record<string, string> = seen
        ? {
            "x-ratelimit-limit": seen.limit,
            "x-ratelimit-remaining": seen.remaining,
            "x-ratelimit-reset": String(
              Math.max(1, Math.ceil((seen.resetAt - options.now().getTime()) / 1000)),
            ),
          }
        : {};
      return fail("rate_limit_exceeded", "Too many requests (fault hook).", {
        "retry-after": "2",
        ...window,
      });
    }

    const response = await service(input, init);
    await observe(path, response);
    if (kind === "500")
      return fail("internal_error", "Something broke (fault hook).", limitHeaders(response));
    if (kind === "cursor400" && query.has("starting_after"))
      return fail(
        "invalid_parameter",
        "This cursor has expired (fault hook).",
        limitHeaders(response),
        "starting_after",
      );
    if (!response.ok) return response;
    const edit = take(edits, path, query);
    const answer = edit ? await edited(response, edit.edit) : response;
    const isList = ["/transactions", "/topups", "/checkins", "/tickets", "/wristbands"].includes(path);
    if (kind === "short" || (isList && chaos.pShort > 0 && options.random() < chaos.pShort)) {
      stats.faults++;
      return edited(answer, cutShort(query));
    }
    return answer;
  };

  return {
    fetch,
    chaos,
    stats,
    requests,
    /** The next `times` requests matching `match` get `kind`. */
    arm(kind: FaultKind, match: RequestMatch = () => true, times = 1) {
      faults.push({ kind, match, times });
    },
    /** The next `times` answers (200s) to requests matching `match` are rewritten by `edit` (before a short page's cut). */
    rewrite(match: RequestMatch, edit: (body: Json) => Json, times = Number.POSITIVE_INFINITY) {
      const armed = { match, edit, times };
      edits.push(armed);
      return {
        disarm: () => {
          armed.times = 0;
        },
      };
    },
    /** Before the next `times` requests matching `match` reach the service, `action` runs (a write meanwhile). */
    before(match: RequestMatch, action: () => Promise<void>, times = 1) {
      hooks.push({ match, action, times });
    },
    /** The reads each window of the key counted, as the service's answers said (a window ends when the count drops). */
    windows(): number[] {
      const counts: number[] = [];
      for (const [i, n] of used.entries()) {
        if (i === 0 || n <= used[i - 1]!) counts.push(n);
        else counts[counts.length - 1] = n;
      }
      return counts;
    },
    /** Ids that list answers to `path` carried more than once. */
    repeated(path: string): string[] {
      const seen = new Set<string>();
      return (listed.get(path) ?? []).filter((id) => seen.has(id) || !seen.add(id));
    },
  };
}

export type UpstreamFaults = ReturnType<typeof withFaults>;

/**
 * Fields the contract does not know, everywhere (an upstream a version ahead): a client drops them,
 * never fails on them. For `rewrite(() => true, withUnknownFields)`.
 */
export function withUnknownFields(body: Record<string, unknown>): Record<string, unknown> {
  const decorate = (x: unknown) =>
    x && typeof x === "object" ? { ...x, livemode: false, metadata: { source: "fault hook" } } : x;
  const data = Array.isArray(body.data) ? { data: body.data.map(decorate) } : {};
  return { ...(decorate(body) as Record<string, unknown>), ...data, extra_section: { hello: "world" } };
}
