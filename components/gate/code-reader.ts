/**
 * Reads ticket codes from the camera's picture: the browser's own BarcodeDetector where it has one
 * that knows QR codes (Chrome on Android and macOS, Safari), else the `barcode-detector` ponyfill,
 * the same API over ZXing-C++ compiled to WebAssembly. Both are loaded only when a scan starts, and
 * the ponyfill's .wasm is served by the console itself (never a CDN): the bundler copies it into
 * the build's static files and `locateFile` points there.
 */

/** The symbologies tickets and wristbands are printed with: 2D first, then the common 1D ones. */
export const TICKET_FORMATS = [
  "qr_code",
  "aztec",
  "data_matrix",
  "pdf417",
  "code_128",
  "code_39",
  "code_93",
  "codabar",
  "ean_13",
  "ean_8",
  "itf",
  "upc_a",
  "upc_e",
] as const;

/** What both detectors offer (the Shape Detection API). */
interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
interface DetectorClass {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats(): Promise<readonly string[]>;
}

export interface CodeReader {
  /** "native" or "zxing-wasm": which one reads (shown to no one; tests and support ask). */
  engine: "native" | "zxing-wasm";
  /** The first code in the current frame, trimmed; null when there is none. */
  read(video: HTMLVideoElement): Promise<string | null>;
}

function reader(engine: CodeReader["engine"], detector: Detector): CodeReader {
  return {
    engine,
    async read(video) {
      const found = await detector.detect(video);
      const code = found.map((b) => b.rawValue.trim()).find((v) => v !== "");
      return code ?? null;
    },
  };
}

export async function createCodeReader(): Promise<CodeReader> {
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (Native) {
    const supported = await Native.getSupportedFormats();
    const formats = TICKET_FORMATS.filter((f) => supported.includes(f));
    if (formats.includes("qr_code")) return reader("native", new Native({ formats }));
  }
  const { BarcodeDetector, prepareZXingModule } = await import("barcode-detector/ponyfill");
  const wasm = new URL("zxing-wasm/reader/zxing_reader.wasm", import.meta.url).href;
  await prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? wasm : prefix + path),
    },
    fireImmediately: true,
  });
  return reader("zxing-wasm", new BarcodeDetector({ formats: [...TICKET_FORMATS] }));
}
