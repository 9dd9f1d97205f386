import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "@/integration-api/testing/test-api";
import type { Ticket } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import { NAME_MATCHES_MAX } from "@/lib/shared/api/search";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { testDashboard } from "@/lib/testing/test-dashboard";
import { upsertTickets } from "../store/mirror";
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
  await upsertTickets(db, [
    ...tickets,
    {
      ...sample,
      id: "tck_search_1",
      code: "TK-SEARCH-1",
      attendee: { ...sample.attendee, name: "Inés Álvarez Dubois" },
    },
    {
      ...sample,
      id: "tck_search_2",
      code: "TK-SEARCH-2",
      attendee: { ...sample.attendee, name: "Álvaro Núñez" },
    },
  ]);
});

afterAll(async () => {
  await db?.close();
  await api?.close();
});

const dashboard = () => ({ ...testDashboard(db), upstream });
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
        },
      ],
      more: false,
    });
    const partial = await search(dashboard(), STAFF, "ALV");
    expect(partial.kind === "names" && partial.matches.map((m) => m.code)).toEqual(
      expect.arrayContaining(["TK-SEARCH-1", "TK-SEARCH-2"]),
    );
    expect(upstreamRequests).toBe(before);
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
    const found = await findTicketsByName(db, "manyname");
    expect(found.matches).toHaveLength(NAME_MATCHES_MAX);
    expect(found.more).toBe(true);
    expect(found.matches[0]!.name).toBe("Manyname Persona");
  });
});
