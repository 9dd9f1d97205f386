import { describe, expect, it } from "vitest";
import { CodeParam, DeviceId, DeviceSegment, SearchQuery, typedText } from "./params";

describe("typedText", () => {
  const line = typedText({ max: 10 });
  const comment = typedText({ max: 50, multiline: true, min: 3 });

  it("keeps ordinary text, trimmed, accents and emoji included", () => {
    expect(line.parse("  Núñez 🎉 ")).toBe("Núñez 🎉");
    expect(comment.parse("two\nlines")).toBe("two\nlines");
  });

  it("refuses NUL and other control characters", () => {
    expect(line.safeParse("a\u0000b").success).toBe(false);
    expect(comment.safeParse("abc\u0007").success).toBe(false);
    expect(line.safeParse("a\u007fb").success).toBe(false);
  });

  it("refuses line breaks and tabs in single-line text only", () => {
    expect(line.safeParse("a\nb").success).toBe(false);
    expect(line.safeParse("a\tb").success).toBe(false);
    expect(comment.safeParse("abc\tdef").success).toBe(true);
  });

  it("refuses lone surrogates, high or low", () => {
    expect(line.safeParse("a\ud800b").success).toBe(false);
    expect(line.safeParse("a\udc00").success).toBe(false);
    expect(line.safeParse("\ud83c\udf89").success).toBe(true);
  });

  it("bounds the length", () => {
    expect(line.safeParse("x".repeat(11)).success).toBe(false);
    expect(comment.safeParse("ab").success).toBe(false);
  });
});

describe("CodeParam", () => {
  it("normalises a code the one way (lib/shared/codes.ts) before every route reads it", () => {
    expect(CodeParam.parse(" tk y6us2dvu\r\n")).toBe("TK-Y6US2DVU");
    expect(CodeParam.parse("04:a1:b2:c3:d4:e5:f6\t")).toBe("04A1B2C3D4E5F6");
  });

  it("refuses an empty code, control characters left inside and an overlong one", () => {
    expect(CodeParam.safeParse(" \r\n").success).toBe(false);
    expect(CodeParam.safeParse("TK\u0007X").success).toBe(false);
    expect(CodeParam.safeParse("x".repeat(65)).success).toBe(false);
  });
});

describe("SearchQuery", () => {
  it("takes a scanned code with its suffix, and refuses other control characters", () => {
    expect(SearchQuery.parse({ q: "TK-Y6US2DVU\r\n" }).q).toBe("TK-Y6US2DVU");
    expect(SearchQuery.parse({ q: "ana\tperez" }).q).toBe("ana perez");
    expect(SearchQuery.safeParse({ q: "a\u0007b" }).success).toBe(false);
    expect(SearchQuery.safeParse({ q: " \r\n" }).success).toBe(false);
  });
});

describe("typedText without trimming: a device id as stored", () => {
  it("keeps leading and trailing spaces; refuses NUL and lone surrogates", () => {
    expect(DeviceId.parse(" bar-1")).toBe(" bar-1");
    expect(DeviceId.parse("bar-1 ")).toBe("bar-1 ");
    expect(DeviceId.parse(" =1+1")).toBe(" =1+1");
    expect(DeviceId.safeParse("").success).toBe(false);
    expect(DeviceId.safeParse("bar\u0000").success).toBe(false);
    expect(DeviceId.safeParse("bar\udc00").success).toBe(false);
    expect(DeviceSegment.parse({ device: " bar-1" })).toEqual({ device: " bar-1" });
    expect(DeviceSegment.safeParse({ device: "a/b" }).success).toBe(false);
  });
});

describe("codes", () => {
  it("refuse lone surrogates and control characters, keep the rest trimmed", () => {
    expect(CodeParam.parse("  T-0001 ")).toBe("T-0001");
    expect(CodeParam.safeParse("T\ud800").success).toBe(false);
    expect(CodeParam.safeParse("\udfffT").success).toBe(false);
    expect(CodeParam.safeParse("T\u0000").success).toBe(false);
    expect(SearchQuery.safeParse({ q: "Ana\ud800" }).success).toBe(false);
    expect(SearchQuery.parse({ q: "Núñez 🎉" })).toEqual({ q: "Núñez 🎉" });
  });
});
