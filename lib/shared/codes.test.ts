import { describe, expect, it } from "vitest";
import { looksLikeCode, normalizeCode, sameCode } from "./codes";

describe("normalizeCode", () => {
  it("keeps a code typed as issued", () => {
    expect(normalizeCode("TK-Y6US2DVU")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("04A1B2C3D4E5F6")).toBe("04A1B2C3D4E5F6");
    expect(normalizeCode("E2E123-FIT")).toBe("E2E123-FIT");
  });

  it("gives a ticket code of the known form its capitals; other codes keep their case (the API ignores it)", () => {
    expect(normalizeCode("tk-y6us2dvu")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("Tk-Y6us2dvU")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("e2e123-fit")).toBe("e2e123-fit");
    expect(normalizeCode("04a1b2c3d4e5f6")).toBe("04a1b2c3d4e5f6");
  });

  it("drops spaces around and inside a code, including no-break and zero-width ones", () => {
    expect(normalizeCode("  TK-Y6US2DVU  ")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("TK-Y6US 2DVU")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("TK Y6US 2DVU")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("TK-\u00a0Y6US\u200b2DVU\ufeff")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("04 A1 B2 C3 D4 E5 F6")).toBe("04A1B2C3D4E5F6");
  });

  it("strips what scanners append: CR, LF, CRLF and tab", () => {
    expect(normalizeCode("TK-Y6US2DVU\r")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("TK-Y6US2DVU\n")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("TK-Y6US2DVU\r\n")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("TK-Y6US2DVU\t")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("\t04A1B2C3D4E5F6\r\n")).toBe("04A1B2C3D4E5F6");
  });

  it("puts back a missing dash, and makes a doubled one single, around the ticket prefix", () => {
    expect(normalizeCode("TKY6US2DVU")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("tky6us2dvu")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("TK--Y6US2DVU")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("TK - - Y6US2DVU")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("TK---CUSTOM-1")).toBe("TK-CUSTOM-1");
    // Typographic dashes are dashes.
    expect(normalizeCode("TK–Y6US2DVU")).toBe("TK-Y6US2DVU");
    expect(normalizeCode("TK\u2212Y6US2DVU")).toBe("TK-Y6US2DVU");
  });

  it("leaves codes that only start like a ticket code alone", () => {
    expect(normalizeCode("TKY6US2DV")).toBe("TKY6US2DV");
    expect(normalizeCode("TK-Y6US2DVU9")).toBe("TK-Y6US2DVU9");
    expect(normalizeCode("TICKET-1")).toBe("TICKET-1");
  });

  it("joins NFC and UHF hex typed in pairs with separators, in capitals", () => {
    expect(normalizeCode("04:a1:b2:c3:d4:e5:f6")).toBe("04A1B2C3D4E5F6");
    expect(normalizeCode("04-A1-B2-C3-D4-E5-F6")).toBe("04A1B2C3D4E5F6");
    expect(normalizeCode("04.a1.b2.c3")).toBe("04A1B2C3");
    expect(normalizeCode("e2:80:11:60:00:00:00:00:00:00:00:01")).toBe("E28011600000000000000001");
    // Mixed separators, odd groups or too few pairs are not an NFC read: kept as typed.
    expect(normalizeCode("04:a1-b2:c3")).toBe("04:a1-b2:c3");
    expect(normalizeCode("04:a1:b2")).toBe("04:a1:b2");
    expect(normalizeCode("04:a1:b2:c")).toBe("04:a1:b2:c");
  });

  it("makes nothing of blanks only", () => {
    expect(normalizeCode(" \r\n\t ")).toBe("");
  });
});

describe("sameCode", () => {
  it("compares codes whatever their case, spaces, dashes and suffixes", () => {
    expect(sameCode("TK-Y6US2DVU", "tk y6us2dvu\r\n")).toBe(true);
    expect(sameCode("04A1B2C3D4E5F6", "04:a1:b2:c3:d4:e5:f6")).toBe(true);
    expect(sameCode("E2E-NFC-1", "e2e-nfc-1")).toBe(true);
    expect(sameCode("TK-Y6US2DVU", "TK-Y6US2DVV")).toBe(false);
  });
});

describe("looksLikeCode", () => {
  it("a word with a digit is a code, even typed with spaces or scanner suffixes", () => {
    expect(looksLikeCode("TK-Y6US2DVU")).toBe(true);
    expect(looksLikeCode("tk y6us 2dvu")).toBe(true);
    expect(looksLikeCode("04:a1:b2:c3:d4:e5:f6\r\n")).toBe(true);
    // A ticket code of the known form, even one without a digit, typed with a space for its dash.
    expect(looksLikeCode("tk abcdefgh")).toBe(true);
  });

  it("a name is not a code", () => {
    expect(looksLikeCode("o brien")).toBe(false);
    expect(looksLikeCode("Álvarez")).toBe(false);
    expect(looksLikeCode("O'Brien 2")).toBe(false);
    // A name with a digit reads as a code: the search tries it as one first, then as a name.
    expect(looksLikeCode("Ana María 2")).toBe(true);
  });
});
