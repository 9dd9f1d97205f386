import { describe, expect, it } from "vitest";
import { csvField, csvLine, isFormulaLike } from "./respond";

/** The one CSV cell writer of every export (sales, top-ups, the night). */

describe("csvField", () => {
  it("defuses a cell whose first character is = + - @, a tab or a carriage return", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\t=1+1")).toBe("'\t=1+1");
    expect(csvField("\tbar-1")).toBe("'\tbar-1");
    expect(csvField("\r=1")).toBe(`"'\r=1"`); // a carriage return is also quoted
  });

  it("defuses the same after leading spaces (spreadsheets skip them before they look)", () => {
    expect(csvField(" =1+1")).toBe("' =1+1");
    expect(csvField(" -2+3")).toBe("' -2+3");
    expect(csvField("   +cmd")).toBe("'   +cmd");
    expect(csvField("  @x")).toBe("'  @x");
    expect(csvField(" \t1")).toBe("' \t1");
    expect(csvField(' =HYPERLINK("http://evil.example","x")')).toBe(
      `"' =HYPERLINK(""http://evil.example"",""x"")"`,
    );
  });

  it("keeps real numbers as numbers, negative ones included", () => {
    for (const n of ["-12.50", "-1", "0", "12", "12.50", "1250"]) expect(csvField(n)).toBe(n);
    expect(csvField(-12.5)).toBe("-12.5");
    expect(csvField(-3)).toBe("-3");
    expect(csvField(0)).toBe("0");
    // Not a plain number: text that a spreadsheet would evaluate.
    for (const text of [" -2", "-2+3", "+12", "-1e5", "-Infinity", "- 1", "-12.50 "])
      expect(csvField(text), text).toBe(`'${text}`);
  });

  it("leaves other text alone, quoting commas, quotes and line breaks", () => {
    expect(csvField("bar-1")).toBe("bar-1");
    expect(csvField(" bar-1")).toBe(" bar-1");
    expect(csvField("a=b")).toBe("a=b");
    expect(csvField("Beer, large")).toBe('"Beer, large"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("")).toBe("");
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
  });

  it("names exactly the formula-like texts", () => {
    expect(isFormulaLike("=A1")).toBe(true);
    expect(isFormulaLike(" =A1")).toBe(true);
    expect(isFormulaLike("\rA")).toBe(true);
    expect(isFormulaLike("-12.50")).toBe(false);
    expect(isFormulaLike("\n=A1")).toBe(false); // a line break is not skipped: the cell starts a new line
    expect(isFormulaLike("x=1")).toBe(false);
  });

  it("a line joins defused cells with commas and ends with CRLF", () => {
    expect(csvLine([" =1+1", -12.5, "-12.50", "ok", null])).toBe("' =1+1,-12.5,-12.50,ok,\r\n");
  });
});
