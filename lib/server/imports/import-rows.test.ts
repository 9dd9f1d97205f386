import { describe, expect, it } from "vitest";
import { type ImportCatalog, validateTicketCsv } from "./import-rows";

const catalog: ImportCatalog = {
  ticketTypes: [
    { id: "aaaaaaaaaaaaaaaaaaaaaaaa", name: "General" },
    { id: "bbbbbbbbbbbbbbbbbbbbbbbb", name: "VIP" },
  ],
  days: [
    { id: "dddddddddddddddddddddd01", name: "Friday", date: "2026-07-10" },
    { id: "dddddddddddddddddddddd02", name: "Saturday", date: "2026-07-11" },
  ],
  zones: [{ id: "eeeeeeeeeeeeeeeeeeeeee01", name: "Backstage" }],
};
const header = "code,ticket_type,name,email,document_type,document_number,birth_date,valid_days,extra_zones";

describe("ticket CSV validation", () => {
  it("turns valid rows into API tickets, names and ids alike", () => {
    const csv = [
      header,
      "T-0001,General,Ana Pérez,ana@example.com,dni,12345678Z,1990-02-03,Friday;2026-07-11,",
      '"",bbbbbbbbbbbbbbbbbbbbbbbb,"Doe, John",john@example.com,,,,dddddddddddddddddddddd01,Backstage',
    ].join("\n");
    const result = validateTicketCsv(csv, catalog);
    expect(result).toEqual({
      ok: true,
      tickets: [
        {
          code: "T-0001",
          ticket_type_id: "aaaaaaaaaaaaaaaaaaaaaaaa",
          attendee: {
            name: "Ana Pérez",
            email: "ana@example.com",
            document: { type: "dni", number: "12345678Z" },
            birth_date: "1990-02-03",
          },
          valid_days: ["dddddddddddddddddddddd01", "dddddddddddddddddddddd02"],
        },
        {
          ticket_type_id: "bbbbbbbbbbbbbbbbbbbbbbbb",
          attendee: { name: "Doe, John", email: "john@example.com" },
          valid_days: ["dddddddddddddddddddddd01"],
          extra_zones: ["eeeeeeeeeeeeeeeeeeeeee01"],
        },
      ],
    });
  });

  it("reports every bad row with its line and column, and keeps nothing", () => {
    const csv = [
      header,
      "T-0001,General,Ana,ana@example.com,,,,Friday,",
      "T-0002,Platinum,Bob,not-an-email,,,,Sunday,",
      "T-0001,VIP,,c@example.com,dni,,,Friday,Roof",
      "T-0004,VIP,Dee,d@example.com,,,31-12-1990,,",
    ].join("\n");
    const result = validateTicketCsv(csv, catalog);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rows).toBe(4);
    const at = (line: number) => result.errors.filter((e) => e.line === line).map((e) => e.column);
    expect(at(2)).toEqual([]);
    expect(at(3)).toEqual(expect.arrayContaining(["ticket_type", "valid_days", "email"]));
    expect(at(4)).toEqual(expect.arrayContaining(["extra_zones", "code", "document_number", "name"]));
    expect(at(5)).toEqual(expect.arrayContaining(["valid_days", "birth_date"]));
    expect(result.errors.find((e) => e.line === 3 && e.column === "email")?.message).toContain(
      "not-an-email",
    );
    expect(result.errors.find((e) => e.column === "code")?.message).toBe(
      "The code T-0001 is also on line 2.",
    );
  });

  it("refuses a file without the required columns or without rows", () => {
    const missing = validateTicketCsv("name,email\nA,a@example.com", catalog);
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.errors[0]!.message).toContain("ticket_type, valid_days");
    const empty = validateTicketCsv(`${header}\n`, catalog);
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.errors[0]!.message).toBe("The file has no rows.");
  });
});
