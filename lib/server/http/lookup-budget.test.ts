import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as search from "@/app/api/staff/search/route";
import * as ticket from "@/app/api/tickets/[code]/route";
import { type Harness, PASSWORDS, startHarness } from "@/lib/testing/console-harness";
import { addUser } from "../auth/users";

/**
 * Fair use of the key's read quota, through the route handlers, against the real Integration API
 * in-process with its real rate limiter and the default quota (120 reads a minute).
 */

let h: Harness;
let manager: string;
let ticketCode: string;

beforeAll(async () => {
  h = await startHarness();
  manager = (await h.signIn("manager", PASSWORDS.manager)).cookie;
  ticketCode = (await h.api!.get<{ data: { code: string }[] }>("/v1/tickets?limit=1", h.key)).body.data[0]!
    .code;
});
afterAll(async () => {
  await h?.close();
});

const searchFor = (cookie: string, code: string) =>
  h.call(search, "GET", `/api/staff/search?q=${encodeURIComponent(code)}`, { cookie });

async function timedTicketLookup(cookie: string) {
  const started = performance.now();
  const res = await h.call(ticket, "GET", `/api/tickets/${ticketCode}`, {
    cookie,
    params: { code: ticketCode },
  });
  return { res, ms: performance.now() - started };
}

describe("the lookup budget", () => {
  it("a staff account that exhausts its lookup budget gets 429 while a manager's lookup answers within 2 s", async () => {
    const staff = (await h.signIn("staff", PASSWORDS.staff)).cookie;
    // The budget is counted per wall-clock minute: start early in one, so it cannot refill mid-test.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 30_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
    const statuses: number[] = [];
    let refused: Response | null = null;
    // Unknown codes: each search costs two reads (ticket, then wristband).
    for (let i = 0; i < 40 && !refused; i++) {
      const res = await searchFor(staff, `NO-SUCH-CODE-${i}`);
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    expect(statuses.filter((s) => s === 404)).toHaveLength(15); // 30 reads: the default LOOKUP_BUDGET
    expect(refused!.status).toBe(429);
    const retryAfter = Number(refused!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = (await refused!.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("lookup_budget_exhausted");
    expect(body.error.message).toBe(
      `You have used your 30 live lookups of this minute: try again in ${retryAfter} s.`,
    );

    const { res, ms } = await timedTicketLookup(manager);
    console.log(
      `manager's ticket lookup after staff exhausted its budget: ${res.status} in ${ms.toFixed(0)} ms`,
    );
    expect(res.status).toBe(200);
    expect(ms).toBeLessThan(2000);
  });

  it("staff together stop at 30 % of the key's quota; managers keep their share", async () => {
    const cookies: string[] = [];
    for (let i = 0; i < 3; i++) {
      await addUser(h.db, `gate-${i}`, "gate-password-1", "staff");
      cookies.push((await h.signIn(`gate-${i}`, "gate-password-1")).cookie);
    }
    let pooled: { code: string; message: string } | null = null;
    for (let round = 0; round < 15 && !pooled; round++) {
      for (const cookie of cookies) {
        const res = await searchFor(cookie, `POOL-${round}`);
        if (res.status === 429) {
          pooled = ((await res.json()) as { error: { code: string; message: string } }).error;
          break;
        }
      }
    }
    expect(pooled?.code).toBe("lookup_budget_exhausted");
    expect(pooled?.message).toMatch(/^Live lookups are busy \(the shared share of the cashless quota/);
    const { res, ms } = await timedTicketLookup(manager);
    expect(res.status).toBe(200);
    expect(ms).toBeLessThan(2000);
  });
});

describe("no silent waits", () => {
  it("a lookup the upstream would make wait answers at once: busy, try again in N s", async () => {
    const tight = await startHarness({ rateLimits: { read: 10 } });
    try {
      const cookie = (await tight.signIn("manager", PASSWORDS.manager)).cookie;
      const code = (await tight.api!.get<{ data: { code: string }[] }>("/v1/tickets?limit=1", tight.key)).body
        .data[0]!.code;
      // Another user of the key (another system, a sync elsewhere) spends the whole read window,
      // far enough from its end that the upstream asks for a wait of more than 2 s.
      for (;;) {
        const direct = await tight.api!.get("/v1/ping", tight.key);
        if (direct.status === 429 && Number(direct.headers.get("retry-after")) > 3) break;
        if (direct.status === 429) await new Promise((r) => setTimeout(r, 4000));
      }
      const started = performance.now();
      const res = await tight.call(ticket, "GET", `/api/tickets/${code}`, { cookie, params: { code } });
      const ms = performance.now() - started;
      console.log(`lookup with the upstream's window spent: ${res.status} in ${ms.toFixed(0)} ms`);
      expect(res.status).toBe(429);
      expect(ms).toBeLessThan(2000);
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(2);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
        `The cashless service is busy: try again in ${retryAfter} s.`,
      );
    } finally {
      await tight.close();
    }
  });
});
