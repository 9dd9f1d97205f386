import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import type { ExpectedLine, NightReportDocument } from "@/lib/shared/api/night";
import { formatMoney } from "@/lib/shared/format/money";
import { nightReportPdf, winAnsi } from "./report-pdf";

/**
 * The night report's PDF, read back with a PDF text extractor (unpdf, PDF.js): the demo night's 36
 * lines (18 desks, cash and card) on at most two A4 pages, with the counted figures, the variances,
 * the denominations, who signed and approved, and the signature lines.
 */

const DESKS = Array.from({ length: 18 }, (_, i) => `desk-${String(i + 1).padStart(2, "0")}`);

function line(device_id: string, payment_method: string, i: number): ExpectedLine {
  const float = payment_method === "cash" ? 15_000 : 0;
  const topups = 100_000 + i * 1_234;
  const withdrawals = payment_method === "cash" ? 2_500 : 0;
  const sales = 50_000 + i * 321;
  return {
    device_id,
    payment_method,
    float,
    topups,
    withdrawals,
    sales,
    expected: float + topups - withdrawals + sales,
  };
}

function document(): NightReportDocument {
  const expected = DESKS.flatMap((d, i) => [line(d, "card", i), line(d, "cash", i)]);
  const cash1 = expected.find((e) => e.device_id === "desk-01" && e.payment_method === "cash")!;
  const card2 = expected.find((e) => e.device_id === "desk-02" && e.payment_method === "card")!;
  const terminals = Array.from({ length: 12 }, (_, i) => ({
    device_id: i === 0 ? "" : `bar-${i}`,
    count: 20 - i,
    amount: (20 - i) * 1_000,
    latest_created_at: "2026-07-11T08:00:00.000Z",
  }));
  return {
    event: { name: "Demo Fest", currency: "EUR", time_zone: "Europe/Madrid" },
    day: {
      id: "day_1",
      name: "Friday",
      date: "2026-07-10",
      starts_at: "2026-07-10T10:00:00.000Z",
      ends_at: "2026-07-11T04:00:00.000Z",
    },
    signoff: {
      id: "42",
      day_id: "day_1",
      signed_at: "2026-07-11T05:10:00.000Z",
      username: "supervisor",
      comment: "Desk 1 short: a €20 note found later — Łukasz 😀",
      counted: [
        {
          device_id: "desk-01",
          payment_method: "cash",
          counted: cash1.expected - 2_000,
          expected: cash1.expected,
          variance: -2_000,
          denominations: { "50000": 3, "2000": 4, "1": 3 },
        },
        {
          device_id: "desk-02",
          payment_method: "card",
          counted: card2.expected + 300,
          expected: card2.expected,
          variance: 300,
        },
      ],
      snapshot: {
        figures: {
          day_id: "day_1",
          sales: { count: 22_158, total: 3_456_789, total_base: 2_856_850, total_tax: 599_939 },
          sales_by_payment_method: [],
          sales_by_device: [],
          sales_by_tax: [],
          topups: { count: 900, amount: 1_234_500 },
          topups_by_payment_method: [],
          withdrawals: { count: 40, amount: 45_000 },
          withdrawals_by_payment_method: [],
          bonuses: { count: 10, amount: 5_000 },
          transfers: { count: 0, amount: 0 },
          expected,
        },
        checksum: {
          upstream: null,
          checked_at: "2026-07-11T05:00:00.000Z",
          matched: true,
          difference: null,
          rewalks: 0,
          last_rewalk_at: null,
          resync_pending_since: null,
        },
        late: { count: 210, amount: 8_053_00, latest_created_at: null, by_device: terminals },
        completeness: {
          provisional: false,
          last_activity: "2026-07-11T03:59:00.000Z",
          terminals: [
            {
              device_id: "bar-9",
              records: 5,
              synced_up_to: null,
              last_arrival: null,
              pending: true,
              waiver: {
                username: "supervisor",
                reason: "power cut, paper tally",
                waived_at: "2026-07-11T05:05:00.000Z",
              },
            },
          ],
        },
        tolerance: { line: 500, night: 2000 },
        signed_against_difference: false,
        blind: true,
        floats: [],
      },
      supersedes: null,
      needs_approval: true,
      approval: { username: "manager", approved_at: "2026-07-11T06:00:00.000Z", comment: "note found" },
      status: "final",
    },
    adjustments: [
      { device_id: "bar-late", count: 2, amount: 4_321, latest_created_at: "2026-07-11T09:00:00.000Z" },
    ],
    generated_at: "2026-07-11T10:00:00.000Z",
  };
}

async function read(pdf: Uint8Array) {
  const proxy = await getDocumentProxy(new Uint8Array(pdf));
  const { totalPages, text } = await extractText(proxy, { mergePages: true });
  return { pages: totalPages, text: text.replace(/\s+/g, " ") };
}

const eur = (minor: number, locale = "en-GB") =>
  formatMoney(minor, "EUR", locale).replace(/[\u00a0\u202f]/g, " ");

describe("the night report's PDF", () => {
  it("fits the demo night's 36 lines on two A4 pages, with what was counted and the variances", async () => {
    const doc = document();
    const pdf = await nightReportPdf(doc, "en");
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe("%PDF-");
    const { pages, text } = await read(pdf);
    expect(pages).toBeLessThanOrEqual(2);
    const cash1 = doc.signoff.counted[0]!;
    expect(text).toContain("Night report: Friday");
    expect(text).toContain(eur(cash1.counted)); // counted
    expect(text).toContain(eur(cash1.expected)); // expected
    expect(text).toContain(`${eur(-2_000)} !`); // variance beyond the tolerance, marked
    expect(text).toContain(`+${eur(300)}`); // within
    expect(text).toContain("not counted"); // the 34 blank lines say so, never 0.00
    expect(text).toContain("2 of 36 lines counted");
    expect(text).toContain(
      `desk-01: 3 × ${eur(50_000)}, 4 × ${eur(2_000)}, 3 × ${eur(1)} = ${eur(cash1.counted)}`,
    );
    expect(text).toContain("Signed off by supervisor at Sat 11 Jul 07:10:00 (sign-off 42).");
    expect(text).toContain("Approved by manager at Sat 11 Jul 08:00:00.");
    expect(text).toContain("Tolerance: €5.00 per line, €20.00 for the night.");
    expect(text).toContain("Counted blind");
    expect(text).toContain("matched the upstream summary");
    expect(text).toContain("bar-9: waived by supervisor");
    expect(text).toContain("22,158 sales");
    expect(text).toContain("online, no terminal: 20 records"); // records without a terminal, in words
    expect(text).toContain("and 4 more terminals");
    expect(text).toContain("bar-late: 2 records, €43.21"); // adjustments since
    expect(text).toContain("Cash supervisor: supervisor");
    expect(text).toContain("Manager (approval): manager");
    expect(text).toMatch(/page 1 of [12]/);
    // A typed comment outside the standard font's characters is kept readable, never breaks the file.
    expect(text).toContain("Comment: Desk 1 short: a €20 note found later — ?ukasz ?");
  });

  it("in Spanish: the words change, the figures do not", async () => {
    const { pages, text } = await read(await nightReportPdf(document(), "es"));
    expect(pages).toBeLessThanOrEqual(2);
    expect(text).toContain("Informe de la noche: Friday");
    expect(text).toContain("sin contar");
    expect(text).toContain(eur(document().signoff.counted[0]!.counted, "es-ES"));
    expect(text).toContain("Supervisor de caja: supervisor");
  });

  it("keeps only what the standard fonts can write", () => {
    expect(winAnsi("1\u202f234,56\u00a0€ \u22125 Ł😀 ñ")).toBe("1\u00a0234,56\u00a0€ -5 ?? ñ");
  });
});
