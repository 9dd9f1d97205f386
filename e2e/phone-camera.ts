import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, type BrowserContext, chromium, devices, expect, type Page } from "@playwright/test";
import { prepareZXingModule, writeBarcode } from "zxing-wasm/writer";
import type { Locale } from "../lib/shared/i18n/locales";
import config, { CHROMIUM_PATH } from "../playwright.config";
import { signIn } from "./support";

/**
 * A phone for the gate specs: an iPhone 13's profile (390×844, touch, mobile) in Debian's Chromium,
 * and a fake camera that films a code generated here (Chromium's fake video capture).
 */

const { defaultBrowserType: _webkit, ...phone } = devices["iPhone 13"];
export const iPhone = phone;

/** The browser's language for each of the console's (its Accept-Language). */
export const BROWSER_LOCALE: Record<Locale, string> = { en: "en-US", es: "es-ES" };

let writerReady: Promise<unknown> | null = null;

/** The modules of a barcode (ZXing's writer): 0 = dark, 255 = light, one byte per module. */
async function barcode(text: string, format: "QRCode" | "Code128") {
  writerReady ??= (() => {
    const wasm = readFileSync(createRequire(import.meta.url).resolve("zxing-wasm/writer/zxing_writer.wasm"));
    return prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
      fireImmediately: true,
    });
  })();
  await writerReady;
  const written = await writeBarcode(text, { format, scale: 1 });
  expect(written.error).toBe("");
  return written.symbol;
}

/**
 * A Y4M video (the format Chromium's fake camera plays in a loop) of the code, black on white in
 * the middle of a 640×480 picture: raw I420 frames, luma from the modules, neutral chroma.
 */
export async function codeVideo(path: string, text: string, format: "QRCode" | "Code128"): Promise<string> {
  const symbol = await barcode(text, format);
  const W = 640;
  const H = 480;
  const scale = Math.min(8, Math.floor(560 / symbol.width));
  const rows = format === "QRCode" ? scale : Math.max(1, Math.floor(160 / symbol.height));
  const x0 = Math.floor((W - symbol.width * scale) / 2);
  const y0 = Math.floor((H - symbol.height * rows) / 2);
  const luma = Buffer.alloc(W * H, 235);
  for (let sy = 0; sy < symbol.height; sy++)
    for (let sx = 0; sx < symbol.width; sx++) {
      if (symbol.data[sy * symbol.width + sx]! >= 128) continue;
      for (let dy = 0; dy < rows; dy++)
        luma.fill(
          16,
          (y0 + sy * rows + dy) * W + x0 + sx * scale,
          (y0 + sy * rows + dy) * W + x0 + (sx + 1) * scale,
        );
    }
  const chroma = Buffer.alloc((W * H) / 2, 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), luma, chroma]);
  writeFileSync(
    path,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`), ...Array(5).fill(frame)]),
  );
  return path;
}

/**
 * Records what the page does with the camera and the speaker: every stream getUserMedia gave
 * (to check it is stopped), every oscillator started (the beep) and every vibration.
 */
function recordCameraAndFeedback() {
  const w = window as unknown as { __streams: MediaStream[]; __beeps: number; __vibrations: unknown[] };
  w.__streams = [];
  w.__beeps = 0;
  w.__vibrations = [];
  const media = navigator.mediaDevices;
  if (media?.getUserMedia) {
    const original = media.getUserMedia.bind(media);
    media.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      w.__streams.push(stream);
      return stream;
    };
  }
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args: Parameters<typeof start>) {
    w.__beeps++;
    return start.apply(this, args);
  };
  Object.defineProperty(navigator, "vibrate", {
    configurable: true,
    value: (pattern: unknown) => {
      w.__vibrations.push(pattern);
      return true;
    },
  });
}

export const liveTracks = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __streams: MediaStream[] }).__streams
        .flatMap((s) => s.getTracks())
        .filter((t) => t.readyState === "live").length,
  );

/** A phone whose camera films `video` (a .y4m file), signed in as staff, in the language `lang`. */
export async function phoneWithCamera(
  video: string | null,
  lang: Locale = "en",
): Promise<{ browser: Browser; context: BrowserContext; page: Page }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      ...(config.use?.launchOptions?.args ?? []),
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      ...(video ? [`--use-file-for-fake-video-capture=${video}`] : []),
    ],
  });
  const context = await browser.newContext({
    ...iPhone,
    locale: BROWSER_LOCALE[lang],
    baseURL: config.use?.baseURL,
    permissions: ["camera"],
  });
  await context.addInitScript(recordCameraAndFeedback);
  const page = await context.newPage();
  await signIn(page, "staff", lang);
  return { browser, context, page };
}
