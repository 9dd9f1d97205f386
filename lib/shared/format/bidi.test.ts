import { describe, expect, it } from "vitest";
import { escapeBidi, hasBidiControls } from "./bidi";

describe("bidi controls shown escaped", () => {
  it("escapes every embedding, override, isolate and mark visibly", () => {
    const controls = [0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
    for (const cp of controls) {
      const text = `Ana${String.fromCodePoint(cp)}Pérez`;
      const hex = cp.toString(16).toUpperCase();
      expect(escapeBidi(text)).toBe(`Ana⟦U+${hex}⟧Pérez`);
      expect(hasBidiControls(text)).toBe(true);
    }
  });

  it("leaves other text alone, right-to-left scripts included", () => {
    for (const text of ["Ana Pérez", "محمد علي", "דוד כהן", "Zoë 😀", ""]) {
      expect(escapeBidi(text)).toBe(text);
      expect(hasBidiControls(text)).toBe(false);
    }
  });

  it("defuses the classic override trick", () => {
    expect(escapeBidi("invoice\u202Egpj.exe")).toBe("invoice⟦U+202E⟧gpj.exe");
  });
});
