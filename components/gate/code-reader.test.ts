import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { ZXING_WASM_SHA256 } from "barcode-detector/ponyfill";
import { describe, expect, it } from "vitest";

describe("the scanner's WebAssembly", () => {
  it("is the very build barcode-detector's glue code expects (the console serves it from zxing-wasm)", () => {
    // code-reader.ts points the ponyfill at zxing-wasm/reader/zxing_reader.wasm as resolved from
    // the project; another version than barcode-detector's own would fail to instantiate.
    const file = createRequire(import.meta.url).resolve("zxing-wasm/reader/zxing_reader.wasm");
    const sha256 = createHash("sha256").update(readFileSync(file)).digest("hex");
    expect(sha256).toBe(ZXING_WASM_SHA256);
  });
});
