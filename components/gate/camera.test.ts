import { describe, expect, it } from "vitest";
import { translatorFor } from "@/lib/shared/i18n/messages";
import { cameraProblem as problemOf } from "./camera";

/** The words the scanner shows for a failure, in English. */
const t = translatorFor("en");
const cameraProblem = (err: unknown, secure: boolean) => t(`camera.${problemOf(err, secure)}`);

const error = (name: string) => new DOMException("browser detail", name);

describe("cameraProblem", () => {
  it("tells a refusal, a missing camera and a busy one apart, and always offers typing", () => {
    expect(cameraProblem(error("NotAllowedError"), true)).toMatch(
      /^Camera access was refused\. Allow the camera/,
    );
    expect(cameraProblem(error("NotFoundError"), true)).toBe(
      "No camera was found on this device. Type the code instead.",
    );
    expect(cameraProblem(error("OverconstrainedError"), true)).toMatch(/^No camera was found/);
    expect(cameraProblem(error("NotReadableError"), true)).toMatch(/^The camera is busy/);
    for (const name of [
      "NotAllowedError",
      "NotFoundError",
      "NotReadableError",
      "NotSupportedError",
      "Whatever",
    ])
      expect(cameraProblem(error(name), true)).toMatch(/type the code/i);
  });

  it("names HTTPS when the page is not secure, the usual cause of a missing camera API", () => {
    expect(cameraProblem(error("NotSupportedError"), false)).toMatch(/secure \(HTTPS\) address/);
    expect(cameraProblem(error("NotSupportedError"), true)).toMatch(/^This browser cannot use the camera/);
  });

  it("has the same problems in Spanish, each in its own words", () => {
    const es = translatorFor("es");
    const names = ["NotAllowedError", "NotFoundError", "NotReadableError", "NotSupportedError", "Whatever"];
    const words = names.map((name) => es(`camera.${problemOf(error(name), true)}`));
    expect(new Set(words).size).toBe(names.length);
    for (const w of words) expect(w).toMatch(/escribe el código/i);
  });

  it("does not repeat the browser's own words", () => {
    expect(cameraProblem(new Error("boom"), true)).toBe(
      "The camera could not be started. Type the code instead.",
    );
    expect(cameraProblem("not an error", true)).not.toContain("not an error");
  });
});
