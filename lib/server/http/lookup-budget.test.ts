import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as quote from "@/app/api/desk/quote/route";
import * as search from "@/app/api/staff/search/route";
import * as ticket from "@/app/api/tickets/[code]/route";
import { type Harness, PASSWORDS, startHarness } from "@/lib/testing/console-harness";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { addUser } from "../auth/accounts";
import { takeLookup } from "../store/lookup-budget";

/**
 * Fair use of the key's read quota, through the route handlers, against the real Integration API
 * in-process with its real rate limiter and the default quota (120 reads a minute: a pool of 48
 * lookups). One injected clock drives the console's budget and the API's rate-limit windows: no
 * test waits for a wall-clock minute.
 */

const MINUTE = 60_000;
const clock = { t: Date.parse("2026-11-25T10:00:05.000Z") };
const nextMinute = () => {
  clock.t = (Math.floor(clock.t / MINUTE) + 1) * MINUTE + 5_000;
};

let h: Harness;
let ticketCode: string;
let wristbandCode: string;
const cookies: Record<"staff" | "supervisor" | "desk" | "manager", string> = {
  staff: "",
  supervisor: "",
  desk: "",
  manager: "",
};

beforeAll(async () => {
  h = await startHarness({ clock: () => new Date(clock.t) });
  await addUser(h.db, "desk-1", "desk-password-1", "supervisor");
  cookies.staff = (await h.signIn("staff", PASSWORDS.staff)).cookie;
  cookies.supervisor = (await h.signIn("supervisor", PASSWORDS.supervisor)).cookie;
  cookies.manager = (await h.signIn("manager", PASSWORDS.manager)).cookie;
  cookies.desk = (await h.signIn("desk-1", "desk-password-1")).cookie;
  const tickets = await h.api!.get<{ data: { code: string; wristband: { nfc: string } | null }[] }>(
    "/v1/tickets?limit=50&status=used",
    h.key,
  );
  ticketCode = tickets.body.data[0]!.code;
  wristbandCode = tickets.body.data.find((t) => t.wristband)!.wristband!.nfc;
});
afterAll(async () => {
  await h?.close();
});

/** An unknown code: each search costs two reads (ticket, then wristband). */
let unknown = 0;
const hammer = (cookie: string) =>
  h.call(search, "GET", `/api/staff/search?q=NO-SUCH-CODE-${++unknown}`, { cookie });
const ticketLookup = (cookie: string) =>
  h.call(ticket, "GET", `/api/tickets/${ticketCode}`, { cookie, params: { code: ticketCode } });
const deskQuote = (cookie: string) =>
  h.call(quote, "GET", `/api/desk/quote?amounts=2000,5000&code=${encodeURIComponent(wristbandCode)}`, {
    cookie,
  });

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

/** Lookups one after another until the first refusal: how many answered, and the refusal. */
async function until429(lookup: () => Promise<Response>, max = 60) {
  let answered = 0;
  for (let i = 0; i < max; i++) {
    const res = await lookup();
    if (res.status === 429) return { answered, refused: res };
    expect(res.status, `lookup ${i}`).toBeLessThan(500);
    answered++;
  }
  return { answered, refused: null };
}

async function counted() {
  const [row] = await h.db.query<{ used: number; users: Record<string, number> }>(
    "select used, users from lookup_budget",
  );
  return row!;
}

describe("fair lookups between three users: a staff account hammering, a supervisor, the desk's quote", () => {
  it("the first minute: the hammering account stops at half the pool, the others keep working", async () => {
    nextMinute();
    const staff = await until429(() => hammer(cookies.staff));
    // The first half of the pool (24 reads) is first come, first served: 12 searches of two reads;
    // alone, a user's fair share is 48 ÷ (1 + 1) = 24, which it then has.
    expect(staff.answered).toBe(12);
    const refusal = await errorOf(staff.refused!);
    expect(refusal.code).toBe("lookup_budget_exhausted");
    expect(refusal.message).toMatch(
      /^You have used half of this minute's live lookups \(24\), the most one person may take/,
    );
    const retryAfter = Number(staff.refused!.headers.get("retry-after"));
    expect(retryAfter).toBe(55);

    // The supervisor's lookups answer, while the staff account keeps hammering (and is refused).
    let supervisorAnswered = 0;
    for (let i = 0; i < 10; i++) {
      expect((await ticketLookup(cookies.supervisor)).status).toBe(200);
      supervisorAnswered++;
      expect((await hammer(cookies.staff)).status).toBe(429);
    }
    // The desk's quote answers too.
    for (let i = 0; i < 5; i++) {
      const res = await deskQuote(cookies.desk);
      expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
      expect((await hammer(cookies.staff)).status).toBe(429);
    }
    const { used, users } = await counted();
    console.log(
      `minute 1: staff 24 reads, supervisor ${supervisorAnswered}, desk 5; pool used ${used} of 48`,
    );
    expect(used).toBeLessThanOrEqual(48);
    expect(Object.values(users).sort((a, b) => a - b)).toEqual([5, 10, 24]);
  });

  it("the next minute: the hammering account again stops at half the pool, the other two get their share (12)", async () => {
    nextMinute();
    const staff = await until429(() => hammer(cookies.staff));
    expect(staff.answered).toBe(12); // the first half, 24 reads, first come first served
    // The three were active the minute before: a fair share is 48 ÷ (3 + 1) = 12.
    expect((await errorOf(staff.refused!)).message).toMatch(
      /^Live lookups are shared by 3 people this minute and you have used your share \(12\)/,
    );
    const supervisor = await until429(() => ticketLookup(cookies.supervisor));
    expect(supervisor.answered).toBe(12);
    const desk = await until429(() => deskQuote(cookies.desk));
    expect(desk.answered).toBe(12);
    // The pool is spent: a fourth user waits for the next minute.
    const manager = await until429(() => ticketLookup(cookies.manager));
    expect(manager.answered).toBe(0);
    expect((await errorOf(manager.refused!)).message).toMatch(/^Live lookups are busy/);
    expect((await counted()).used).toBe(48);
  });

  it("a user alone in a quiet minute keeps working up to half the pool", async () => {
    nextMinute();
    nextMinute(); // nobody was active the minute before
    const alone = await until429(() => ticketLookup(cookies.supervisor));
    expect(alone.answered).toBe(24);
  });

  it("a share never exceeds LOOKUP_BUDGET, and the refusal names it", async () => {
    const tight = await startHarness({ clock: () => new Date(clock.t), env: { LOOKUP_BUDGET: "6" } });
    try {
      const cookie = (await tight.signIn("staff", PASSWORDS.staff)).cookie;
      let refused: Response | null = null;
      let answered = 0;
      for (let i = 0; i < 10 && !refused; i++) {
        const res = await tight.call(search, "GET", `/api/staff/search?q=NOPE-${i}`, { cookie });
        if (res.status === 429) refused = res;
        else answered++;
      }
      expect(answered).toBe(3); // 6 reads
      const retryAfter = Number(refused!.headers.get("retry-after"));
      expect((await errorOf(refused!)).message).toBe(
        `You have used your 6 live lookups of this minute: try again in ${retryAfter} s.`,
      );
    } finally {
      await tight.close();
    }
  }, 180_000); // it starts an Integration API and a console of its own
});

describe("the budget in the store", () => {
  it("parallel lookups of many users never exceed the pool nor a share, and each counted one is counted once", async () => {
    const db = await openTestDashboardStore();
    try {
      const window = new Date("2026-11-25T10:00:00.000Z");
      const before = new Date(window.getTime() - MINUTE);
      const limits = { pool: 48, perUser: 30 };
      const users = ["u1", "u2", "u3", "u4", "u5"];
      const results = await Promise.all(
        users.flatMap((user) =>
          Array.from({ length: 30 }, () =>
            takeLookup(db, user, limits, window, before).then((r) => ({ user, taken: r.taken })),
          ),
        ),
      );
      const taken = results.filter((r) => r.taken);
      const [row] = await db.query<{ used: number; users: Record<string, number> }>(
        "select used, users from lookup_budget",
      );
      expect(row!.used).toBe(taken.length);
      expect(taken.length).toBeLessThanOrEqual(48);
      for (const user of users) {
        const mine = taken.filter((r) => r.user === user).length;
        expect(row!.users[user] ?? 0).toBe(mine);
        expect(mine).toBeLessThanOrEqual(24);
      }
      // The next window starts over and remembers who was active: u1 takes the first half again,
      // then a newcomer's fair share counts the users of the window before.
      const active = Object.keys(row!.users).length;
      expect(active).toBeGreaterThanOrEqual(2);
      const next = new Date(window.getTime() + MINUTE);
      let again = 0;
      while ((await takeLookup(db, "u1", limits, next, window)).taken) again++;
      expect(again).toBe(24);
      let newcomer = 0;
      while ((await takeLookup(db, "u7", limits, next, window)).taken) newcomer++;
      expect(newcomer).toBe(Math.floor(48 / (active + 1 + 1)));
      // Two windows later nobody is active any more: a lone user gets half the pool again.
      const later = new Date(window.getTime() + 3 * MINUTE);
      let alone = 0;
      while ((await takeLookup(db, "u9", limits, later, new Date(later.getTime() - MINUTE))).taken) alone++;
      expect(alone).toBe(24);
      // An instance whose clock is behind counts into the newer window instead of restarting an old one.
      expect((await takeLookup(db, "u8", limits, window, before)).taken).toBe(true);
      const [after] = await db.query<{ window_start: string; used: number }>(
        "select window_start, used from lookup_budget",
      );
      expect(after).toEqual({ window_start: later.toISOString(), used: 25 });
      // No user goes past LOOKUP_BUDGET, whatever the pool leaves.
      const capped = { pool: 48, perUser: 5 };
      const fresh = new Date(window.getTime() + 10 * MINUTE);
      let five = 0;
      while ((await takeLookup(db, "u5", capped, fresh, new Date(fresh.getTime() - MINUTE))).taken) five++;
      expect(five).toBe(5);
    } finally {
      await db.close();
    }
  });
});

describe("no silent waits", () => {
  it("a lookup the upstream would make wait answers at once: busy, try again in N s", async () => {
    const at = { t: Date.parse("2026-11-25T11:00:10.000Z") };
    const tight = await startHarness({ rateLimits: { read: 10 }, clock: () => new Date(at.t) });
    try {
      const cookie = (await tight.signIn("manager", PASSWORDS.manager)).cookie;
      const code = (await tight.api!.get<{ data: { code: string }[] }>("/v1/tickets?limit=1", tight.key)).body
        .data[0]!.code;
      // Another user of the key (another system, a sync elsewhere) spends the whole read window at
      // its start: the upstream asks for a wait of a minute.
      for (let i = 0; i < 10; i++) await tight.api!.get("/v1/ping", tight.key);
      const direct = await tight.api!.get("/v1/ping", tight.key);
      expect(direct.status).toBe(429);
      const upstreamWait = Number(direct.headers.get("retry-after"));
      expect(upstreamWait).toBeGreaterThan(2);
      // Counted, not timed: the client's attempts, retries (each one follows a wait) and 429s.
      const before = { ...tight.dashboard.upstream.stats };
      const res = await tight.call(ticket, "GET", `/api/tickets/${code}`, { cookie, params: { code } });
      expect(res.status).toBe(429);
      // One attempt, its 429, and no wait nor retry after it: the refusal is answered at once.
      const { stats } = tight.dashboard.upstream;
      expect({
        requests: stats.requests - before.requests,
        rateLimited: stats.rateLimited - before.rateLimited,
        retries: stats.retries - before.retries,
      }).toEqual({ requests: 1, rateLimited: 1, retries: 0 });
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(retryAfter).toBe(upstreamWait);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
        `The cashless service is busy: try again in ${retryAfter} s.`,
      );
    } finally {
      await tight.close();
    }
  }, 180_000); // it starts an Integration API and a console of its own
});
