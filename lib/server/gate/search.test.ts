import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "@/integration-api/testing/test-api";
import type { Ticket } from "@/lib/contract";
import { systemClock } from "@/lib/contract/clock";
import type { Db } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import { NAME_MATCHES_MAX } from "@/lib/shared/api/search";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { testDashboard } from "@/lib/testing/test-dashboard";
import { upsertTickets } from "../store/mirror";
import { saveResourceOutcome } from "../store/sync-state";
import { UpstreamClient } from "../upstream/client";
import { findTicketsByName, search } from "./search";

/** The header search against the real Integration API (in-process) and a mirror of its own. */

let api: TestApi;
let db: Db;
let upstream: UpstreamClient;
let upstreamRequests = 0;
let sample: Ticket;
let band: { nfc: string };

beforeAll(async () => {
  api = await createTestApi({ scale: 0.02 });
  const { key } = await api.createKey({
    name: "dashboard search",
    scopes: ["*"],
    activate: true,
    rate_limits: { read: 100_000, write: 100_000 },
  } as Parameters<TestApi["createKey"]>[0]);
  upstream = new UpstreamClient({
    baseUrl: "http://integration-api.test/v1",
    apiKey: key,
    fetch: async (url, init) => {
      upstreamRequests++;
      return api.app.request(url, init);
    },
    sleep: async () => {},
    now: systemClock,
  });
  db = await openTestDashboardStore();
  const tickets = (await api.get<{ data: Ticket[] }>("/v1/tickets?limit=50", key)).body.data;
  sample = tickets[0]!;
  band = (await api.get<{ data: { nfc: string }[] }>("/v1/wristbands?limit=1", key)).body.data[0]!;
  // A letters-only code upstream that the mirror does not hold yet.
  const created = await api.request("/v1/tickets", {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      "idempotency-key": crypto.randomUUID(),
    },
    body: JSON.stringify({
      tickets: [
        {
          code: "GATELETTERS",
          ticket_type_id: sample.ticket_type.id,
          attendee: { name: "Letters Only", email: "letters@example.com" },
          valid_days: sample.valid_days.map((d) => d.id),
        },
      ],
    }),
  });
  expect(created.status).toBe(201);
  // TK-SEARCH-1…5: the sample ticket again under these names.
  const names = [
    "Inés Álvarez Dubois",
    "Álvaro Núñez",
    "Siobhán O'Brien",
    "Ewan MacDonald",
    "Lena Van der Berg",
  ];
  await upsertTickets(db, [
    ...tickets,
    ...names.map((name, i) => ({
      ...sample,
      id: `tck_search_${i + 1}`,
      code: `TK-SEARCH-${i + 1}`,
      attendee: { ...sample.attendee, name },
    })),
  ]);
  // The first walk of the tickets is done: a name nobody has is "nothing found".
  await saveResourceOutcome(db, {
    resource: "tickets",
    at: new Date(),
    ok: true,
    lagSeconds: 0,
    requests: 1,
    records: 1,
  });
});

afterAll(async () => {
  await db?.close();
  await api?.close();
});

const dashboard = () => ({ ...testDashboard(db), upstream });
const codes = (found: Awaited<ReturnType<typeof search>>) =>
  found.kind === "names" ? found.matches.map((m) => m.code) : found;
const STAFF = { id: "u_gate", username: "gate", role: "staff" as const, locale: null };

async function refusal(text: string): Promise<ConsoleError> {
  try {
    await search(dashboard(), STAFF, text);
  } catch (err) {
    if (err instanceof ConsoleError) return err;
    throw err;
  }
  throw new Error(`"${text}" found something`);
}

describe("header search", () => {
  it("opens a ticket or a wristband by its code, looked up live", async () => {
    expect(await search(dashboard(), STAFF, sample.code)).toEqual({ kind: "ticket", code: sample.code });
    expect(await search(dashboard(), STAFF, band.nfc)).toEqual({ kind: "wristband", code: band.nfc });
  });

  it("finds attendees by name in the mirror without spending upstream requests", async () => {
    const before = upstreamRequests;
    const found = await search(dashboard(), STAFF, "ines alvarez");
    expect(found).toEqual({
      kind: "names",
      query: "ines alvarez",
      matches: [
        {
          code: "TK-SEARCH-1",
          name: "Inés Álvarez Dubois",
          status: sample.status,
          ticket_type: sample.ticket_type.name,
          valid_days: sample.valid_days,
          extra_zones: sample.extra_zones,
          checked_in_at: sample.checked_in_at,
          wristband: sample.wristband?.nfc ?? null,
          // The catalog is not mirrored in this store: the type's zones are not known.
          type_zone_ids: null,
        },
      ],
      more: false,
      loading: null,
      gate: { now: expect.any(String), timeZone: "UTC", days: [], zones: [] },
    });
    const partial = await search(dashboard(), STAFF, "ALV");
    expect(partial.kind === "names" && partial.matches.map((m) => m.code)).toEqual(
      expect.arrayContaining(["TK-SEARCH-1", "TK-SEARCH-2"]),
    );
    expect(upstreamRequests).toBe(before);
  });

  it("finds a code typed in lower case, with spaces, or with a scanner's suffix", async () => {
    for (const typed of [
      sample.code.toLowerCase(),
      ` ${sample.code.toLowerCase()}\r\n`,
      band.nfc.toLowerCase(),
    ]) {
      const found = await search(dashboard(), STAFF, typed);
      expect(found.kind === "names" ? null : found.code).toBe(
        typed === band.nfc.toLowerCase() ? band.nfc : sample.code,
      );
    }
    const spaced = `${sample.code.slice(0, 5)} ${sample.code.slice(5)}`.toLowerCase();
    expect(await search(dashboard(), STAFF, spaced)).toEqual({ kind: "ticket", code: sample.code });
  });

  it("ignores punctuation and spaces inside names: o brien, obrien and O'Brien find each other", async () => {
    // The demo has O'Briens of its own: the ticket must be among the matches.
    const found = async (typed: string) => codes(await search(dashboard(), STAFF, typed)) as string[];
    for (const typed of ["o brien", "obrien", "O'Brien", "o'bri", "brien", "siobhan o b", "siobhan obri"])
      expect(await found(typed), typed).toContain("TK-SEARCH-3");
    expect(await found("siobhan o brien")).toEqual(["TK-SEARCH-3"]);
    for (const typed of ["mac donald", "macdonald", "ewan mac don"])
      expect(await found(typed), typed).toContain("TK-SEARCH-4");
    for (const typed of ["vanderberg", "van der berg", "lena vander", "vander berg"])
      expect(await found(typed), typed).toContain("TK-SEARCH-5");
  });

  it("tries a single word no name matches as a code too (codes of letters only)", async () => {
    expect(await search(dashboard(), STAFF, "GATELETTERS")).toEqual({ kind: "ticket", code: "GATELETTERS" });
  });

  it("says plainly when nothing has the code or the name", async () => {
    const code = await refusal("TK-NOPE-404");
    expect([code.status, code.code, code.message]).toEqual([
      404,
      "nothing_found",
      "Nothing with the code TK-NOPE-404: no ticket, no wristband.",
    ]);
    const before = upstreamRequests;
    const name = await refusal("Nobody Here");
    expect(name.message).toBe("Nothing found for “Nobody Here”: no attendee with that name.");
    expect(upstreamRequests).toBe(before);
  });

  it("answers at most 20 names and says there were more", async () => {
    await upsertTickets(
      db,
      Array.from({ length: 25 }, (_, i) => ({
        ...sample,
        id: `tck_many_${i}`,
        code: `TK-MANY-${i}`,
        attendee: { ...sample.attendee, name: `Manyname Person${String.fromCharCode(97 + i)}` },
      })),
    );
    const found = await findTicketsByName(dashboard(), "manyname");
    expect(found.matches).toHaveLength(NAME_MATCHES_MAX);
    expect(found.more).toBe(true);
    expect(found.matches[0]!.name).toBe("Manyname Persona");
  });
});

describe("while the tickets are still being mirrored", () => {
  it("a name search says how many names are there so far and shows what is there, never “nothing found”", async () => {
    const fresh = await openTestDashboardStore();
    try {
      await upsertTickets(fresh, [{ ...sample, id: "tck_loading_1", code: "TK-LOADING-1" }]);
      const early = { ...testDashboard(fresh), upstream };
      const none = await search(early, STAFF, "Nobody Here");
      expect(none).toMatchObject({ kind: "names", matches: [], loading: { mirrored: 1 } });
      const some = await search(early, STAFF, sample.attendee.name);
      expect(some).toMatchObject({ kind: "names", loading: { mirrored: 1 } });
      expect(codes(some)).toEqual(["TK-LOADING-1"]);
      // A walk that failed half-way is not done either; a completed one is.
      await saveResourceOutcome(fresh, {
        resource: "tickets",
        at: new Date(),
        ok: false,
        lagSeconds: null,
        requests: 1,
        records: 0,
      });
      expect(await search(early, STAFF, "Nobody Here")).toMatchObject({ loading: { mirrored: 1 } });
      await saveResourceOutcome(fresh, {
        resource: "tickets",
        at: new Date(),
        ok: true,
        lagSeconds: 0,
        requests: 1,
        records: 1,
      });
      await expect(search(early, STAFF, "Nobody Here")).rejects.toMatchObject({ code: "nothing_found" });
    } finally {
      await fresh.close();
    }
  });
});
