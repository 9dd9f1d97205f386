import { describe, expect, it } from "vitest";
import { ConsoleError } from "@/lib/shared/api/errors";
import { decodeCursor, encodeCursor } from "./cursor";

/** The "latest" lists' cursors are parsed and checked: only what encodeCursor writes gets through. */

const b64 = (text: string) => Buffer.from(text).toString("base64url");

function refusal(cursor: string): ConsoleError | null {
  try {
    decodeCursor(cursor);
    return null;
  } catch (err) {
    return err as ConsoleError;
  }
}

describe("decodeCursor", () => {
  it("reads back what encodeCursor wrote", () => {
    const at = "2026-07-10T22:00:00.123Z";
    expect(decodeCursor(encodeCursor(at, "5a1e00000000000000000001"))).toEqual({
      at,
      id: "5a1e00000000000000000001",
    });
    expect(decodeCursor(undefined)).toBeNull();
    expect(decodeCursor("")).toBeNull();
  });

  it("refuses with 400 invalid_parameter (param cursor) anything else", () => {
    const cases = [
      "MXx4", // "1|x": a date Date.parse accepts, a timestamp the store does not
      "99999",
      "Tue 2026",
      b64("Tue 2026|abc"),
      b64("99999|abc"),
      b64("2026-02-30T00:00:00.000Z|abc"), // no 30 February
      b64("0000-01-01T00:00:00.000Z|abc"), // no year 0
      b64("275760-09-13T00:00:00.000Z|abc"),
      b64("2026-07-10T22:00:00Z|abc"), // not as written: milliseconds missing
      b64("2026-07-10T22:00:00.000+02:00|abc"),
      b64("1999-12-31T23:59:59.999Z|abc"),
      b64("2026-07-10T22:00:00.000Z|"),
      b64("2026-07-10T22:00:00.000Z|a|b"),
      b64("2026-07-10T22:00:00.000Z|a'b"),
      b64("2026-07-10T22:00:00.000Z|\u0000"),
      `${encodeCursor("2026-07-10T22:00:00.000Z", "abc")}=`, // not canonical base64url
      "%E0",
      "a".repeat(301),
      "\u0000",
      "\ud800",
    ];
    for (const cursor of cases) {
      const error = refusal(cursor);
      expect(error, JSON.stringify(cursor)).toBeInstanceOf(ConsoleError);
      expect(error).toMatchObject({ status: 400, code: "invalid_parameter", param: "cursor" });
    }
  });
});
