import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ticket } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { upsertTickets } from "./mirror";
import { fillTicketSearchNames, prefixUpperBound, ticketsByNameWords } from "./ticket-search";

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
});
afterAll(async () => {
  await db?.close();
});

let seq = 0;
function ticket(name: string, overrides: Partial<Ticket> = {}): Ticket {
  seq++;
  return {
    object: "ticket",
    id: `tck_${String(seq).padStart(6, "0")}`,
    code: `TK-${String(seq).padStart(6, "0")}`,
    status: "active",
    ticket_type: { id: "tt_day", name: "Day pass" },
    attendee: { name, email: `p${seq}@example.com`, document: null },
    valid_days: [],
    extra_zones: [],
    wristband: null,
    checked_in_at: null,
    created_at: "2026-07-01T10:00:00.000Z",
    updated_at: "2026-07-01T10:00:00.000Z",
    ...overrides,
  };
}

const names = (rows: { name: string }[]) => rows.map((r) => r.name);

describe("prefixUpperBound", () => {
  it("is the first string after every string with the prefix", () => {
    expect(prefixUpperBound("alv")).toBe("alw");
    expect(prefixUpperBound("a")).toBe("b");
    expect(() => prefixUpperBound("")).toThrow();
  });
});

describe("tickets by name words", () => {
  beforeAll(async () => {
    await upsertTickets(db, [
      ticket("Álvarez Dubois", { status: "used", ticket_type: { id: "tt_vip", name: "VIP weekend" } }),
      ticket("María Álvarez"),
      ticket("Ana Alvarado Ruiz"),
      ticket("Jean-Luc Dubois"),
      ticket("NÚÑEZ García, Zoë"),
      ticket("Alvaro Pérez"),
      ticket("Gilberto Ruiz"),
      ticket("Marta Gil"),
    ]);
  });

  it("finds names without accents, in any case, by the start of any word", async () => {
    expect(names(await ticketsByNameWords(db, ["alvarez"], 20)).sort()).toEqual([
      "María Álvarez",
      "Álvarez Dubois",
    ]);
    expect(names(await ticketsByNameWords(db, ["nunez"], 20))).toEqual(["NÚÑEZ García, Zoë"]);
    expect(names(await ticketsByNameWords(db, ["zoe", "garc"], 20))).toEqual(["NÚÑEZ García, Zoë"]);
    expect(names(await ticketsByNameWords(db, ["luc"], 20))).toEqual(["Jean-Luc Dubois"]);
    // A word inside a word is not a match: "varez" starts no word.
    expect(await ticketsByNameWords(db, ["varez"], 20)).toEqual([]);
  });

  it("needs every typed word; answers the code, type and status", async () => {
    expect(await ticketsByNameWords(db, ["alvarez", "dubois"], 20)).toEqual([
      {
        code: "TK-000001",
        name: "Álvarez Dubois",
        status: "used",
        ticket_type: "VIP weekend",
        valid_days: [],
        extra_zones: [],
        checked_in_at: null,
        wristband: null,
        type_zone_ids: null,
      },
    ]);
    expect(await ticketsByNameWords(db, ["alvarez", "nobody"], 20)).toEqual([]);
  });

  it("ranks whole words above prefixes, then names that start with the first word, then by name", async () => {
    // "alvar": a prefix of Álvarez, Alvarado and Alvaro alike → names starting with it first.
    expect(names(await ticketsByNameWords(db, ["alvar"], 20))).toEqual([
      "Álvarez Dubois",
      "Alvaro Pérez",
      "Ana Alvarado Ruiz",
      "María Álvarez",
    ]);
    // "gil" is a whole word of Marta Gil's name, only the start of Gilberto's.
    expect(names(await ticketsByNameWords(db, ["gil"], 20))).toEqual(["Marta Gil", "Gilberto Ruiz"]);
    // "alvaro" is a whole word of one name and only a prefix of none other.
    expect(names(await ticketsByNameWords(db, ["alvaro"], 20))).toEqual(["Alvaro Pérez"]);
    // "dubois" whole in both; "jean" whole in one, so that one first.
    expect(names(await ticketsByNameWords(db, ["dubois", "j"], 20))).toEqual(["Jean-Luc Dubois"]);
  });

  it("indexes adjacent words joined, so punctuation and inner spaces do not matter (migration 016)", async () => {
    await upsertTickets(db, [ticket("Seán O'Brien"), ticket("Anna Van der Berg")]);
    for (const typed of [["o", "brien"], ["obrien"], ["brien"], ["sean", "obr"]])
      expect(names(await ticketsByNameWords(db, typed, 20)), typed.join(" ")).toEqual(["Seán O'Brien"]);
    for (const typed of [["vanderberg"], ["vander", "berg"], ["van", "derberg"], ["anna", "vanderb"]])
      expect(names(await ticketsByNameWords(db, typed, 20)), typed.join(" ")).toEqual(["Anna Van der Berg"]);
  });

  it("answers what the gate's verdict needs, the zones of a mirrored ticket type included", async () => {
    await db.query(
      `insert into m_ticket_types (id, name, data) values ('tt_gate', 'Gate pass',
         '{"zones": [{"id": "z_main", "name": "Main"}, {"id": "z_vip", "name": "VIP"}]}')`,
    );
    const day = { id: "d2", name: "Day 2" };
    await upsertTickets(db, [
      ticket("Verdict Person", {
        status: "used",
        ticket_type: { id: "tt_gate", name: "Gate pass" },
        valid_days: [day],
        extra_zones: [{ id: "z_camp", name: "Camping" }],
        checked_in_at: "2026-07-11T18:00:00.000Z",
        wristband: { id: "w1", nfc: "04AABB" },
      }),
    ]);
    expect(await ticketsByNameWords(db, ["verdict"], 20)).toEqual([
      expect.objectContaining({
        valid_days: [day],
        extra_zones: [{ id: "z_camp", name: "Camping" }],
        checked_in_at: "2026-07-11T18:00:00.000Z",
        wristband: "04AABB",
        type_zone_ids: ["z_main", "z_vip"],
      }),
    ]);
  });

  it("stops at the limit", async () => {
    expect(await ticketsByNameWords(db, ["a"], 2)).toHaveLength(2);
  });

  it("follows a renamed ticket and forgets a deleted one", async () => {
    const t = ticket("Pilar Gómez");
    await upsertTickets(db, [t]);
    expect(names(await ticketsByNameWords(db, ["gomez"], 20))).toEqual(["Pilar Gómez"]);
    await upsertTickets(db, [
      { ...t, attendee: { ...t.attendee, name: "Pilar Sánchez" }, updated_at: "2026-07-02T10:00:00.000Z" },
    ]);
    expect(await ticketsByNameWords(db, ["gomez"], 20)).toEqual([]);
    expect(names(await ticketsByNameWords(db, ["sanchez"], 20))).toEqual(["Pilar Sánchez"]);
    await db.query("delete from m_tickets where id = $1", [t.id]);
    expect(await ticketsByNameWords(db, ["pilar"], 20)).toEqual([]);
    expect(await db.query("select 1 from m_ticket_words where ticket_id = $1", [t.id])).toEqual([]);
  });

  it("re-derives the names of tickets with an apostrophe (migration 016 forgets them; the store fills them again)", async () => {
    const t = ticket("Niamh O’Connor");
    await upsertTickets(db, [t]);
    // As migration 016 leaves such a row: no search_name, no words, until the store opens.
    await db.query("update m_tickets set search_name = null where id = $1", [t.id]);
    expect(await ticketsByNameWords(db, ["connor"], 20)).toEqual([]);
    expect(await fillTicketSearchNames(db)).toBe(1);
    expect(names(await ticketsByNameWords(db, ["o", "connor"], 20))).toEqual(["Niamh O’Connor"]);
    expect(names(await ticketsByNameWords(db, ["oconnor"], 20))).toEqual(["Niamh O’Connor"]);
  });

  it("gives tickets mirrored before the name index their words", async () => {
    const t = ticket("Søren Ødegaard");
    await upsertTickets(db, [t]);
    // As a row written before migration 009 was: no search_name, so no words.
    await db.query("update m_tickets set search_name = null where id = $1", [t.id]);
    await db.query("delete from m_ticket_words where ticket_id = $1", [t.id]);
    expect(await ticketsByNameWords(db, ["soren"], 20)).toEqual([]);
    expect(await fillTicketSearchNames(db)).toBe(1);
    expect(names(await ticketsByNameWords(db, ["soren", "odegaard"], 20))).toEqual(["Søren Ødegaard"]);
    expect(await fillTicketSearchNames(db)).toBe(0);
  });

  it("reads the word index, not the whole table", async () => {
    await db.query(
      `insert into m_tickets (id, code, status, ticket_type_id, updated_at, data, search_name)
       select 'bulk_' || g, 'BULK-' || g, 'active', 'tt_day', now(),
         jsonb_build_object('attendee', jsonb_build_object('name', 'Bulk ' || g), 'ticket_type', jsonb_build_object('name', 'Day pass')),
         'bulk w' || g || ' x' || (g % 97)
       from generate_series(1, 5000) g`,
    );
    await db.query("analyze m_tickets");
    await db.query("analyze m_ticket_words");
    const plan = (
      await db.query<Record<string, string>>(
        `explain with typed as (select tok, hi, i from unnest($1::text[], $2::text[]) with ordinality as x(tok, hi, i))
         select w.ticket_id from typed join m_ticket_words w
           on w.word >= typed.tok collate "C" and w.word < typed.hi collate "C"`,
        [["w4999"], [prefixUpperBound("w4999")]],
      )
    )
      .map((r) => Object.values(r)[0])
      .join("\n");
    expect(plan).toMatch(/Index (Only )?Scan (using|on) m_ticket_words_pkey/);
    expect(plan).not.toMatch(/Seq Scan on m_ticket_words/);
    expect(names(await ticketsByNameWords(db, ["w4999"], 20))).toEqual(["Bulk 4999"]);
  });
});
