import { describe, expect, it } from "vitest";
import { joinedVariants, normalizeSearchText, searchWords } from "./search-text";

describe("normalizeSearchText", () => {
  it("lowercases and drops accents, so a name typed without them matches", () => {
    expect(normalizeSearchText("Álvarez Dubois")).toBe("alvarez dubois");
    expect(normalizeSearchText("NÚÑEZ")).toBe("nunez");
    expect(normalizeSearchText("Zoë Françoise Şahin")).toBe("zoe francoise sahin");
    expect(normalizeSearchText("alvarez")).toBe(normalizeSearchText("ÁLVAREZ"));
  });

  it("treats composed and decomposed accents alike", () => {
    const composed = "Jos\u00e9";
    const decomposed = "Jose\u0301";
    expect(normalizeSearchText(composed)).toBe("jose");
    expect(normalizeSearchText(decomposed)).toBe("jose");
  });

  it("spells out the Latin letters that do not decompose", () => {
    expect(normalizeSearchText("Straße Søren Łukasz Æsa Œuvre")).toBe("strasse soren lukasz aesa oeuvre");
  });

  it("breaks words at apostrophes, hyphens, dots and extra spaces (joined words are indexed too)", () => {
    expect(normalizeSearchText("O'Brien")).toBe("o brien");
    expect(normalizeSearchText("d’Artagnan")).toBe("d artagnan");
    expect(normalizeSearchText("  Jean-Luc   St. Clair ")).toBe("jean luc st clair");
  });

  it("keeps letters of other scripts and digits", () => {
    expect(normalizeSearchText("Ёлка 2")).toBe("елка 2");
    expect(normalizeSearchText("山田 太郎")).toBe("山田 太郎");
  });

  it("makes nothing of punctuation only", () => {
    expect(normalizeSearchText(" -- ' ")).toBe("");
  });
});

describe("searchWords", () => {
  it("splits the normalized text into words", () => {
    expect(searchWords("María José Álvarez-Dubois")).toEqual(["maria", "jose", "alvarez", "dubois"]);
    expect(searchWords("   ")).toEqual([]);
  });
});

describe("joinedVariants", () => {
  it("joins each pair of adjacent words, then all of them", () => {
    expect(joinedVariants(["mac", "donald"])).toEqual([["macdonald"]]);
    expect(joinedVariants(["van", "der", "berg"])).toEqual([
      ["vander", "berg"],
      ["van", "derberg"],
      ["vanderberg"],
    ]);
    expect(joinedVariants(["obrien"])).toEqual([]);
  });

  it("stays bounded for long queries", () => {
    expect(joinedVariants(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]).length).toBeLessThanOrEqual(8);
  });
});
