import { describe, expect, it } from "vitest";
import { listenHost } from "./listen-host";
import { isAddressLine, nextEnv, nextStartArgs } from "./next-process";

describe("where npm start listens", () => {
  it("the sandbox: 127.0.0.1 only unless HOST says otherwise", () => {
    expect(listenHost({ sandbox: true }).bind).toBe("127.0.0.1");
    expect(listenHost({ sandbox: true, HOST: "" }).bind).toBe("127.0.0.1");
    expect(listenHost({ sandbox: true }).note).toMatch(/127\.0\.0\.1 only.*HOST=0\.0\.0\.0.*HTTPS/);
    const open = listenHost({ sandbox: true, HOST: "0.0.0.0" });
    expect(open.bind).toBe("0.0.0.0");
    expect(open.note).toMatch(/demo logins.*HTTPS/);
  });

  it("against a real upstream: as configured, every interface without HOST", () => {
    expect(listenHost({ sandbox: false })).toMatchObject({ bind: undefined });
    expect(listenHost({ sandbox: false, HOST: "10.0.0.5" })).toMatchObject({ bind: "10.0.0.5" });
    expect(listenHost({ sandbox: false, HOST: "::1" }).note).toBe("Listening on ::1 only (this computer).");
  });

  it("next start gets -H, telemetry off, and its address lines are not repeated", () => {
    expect(nextStartArgs(3140, "127.0.0.1").slice(1)).toEqual(["start", "-p", "3140", "-H", "127.0.0.1"]);
    expect(nextStartArgs(3140).slice(1)).toEqual(["start", "-p", "3140"]);
    expect(nextEnv({ PORT: "1" })).toEqual({ PORT: "1", NEXT_TELEMETRY_DISABLED: "1" });
    expect(isAddressLine("   - Network:       http://192.0.2.2:3140")).toBe(true);
    expect(isAddressLine("- Local:         http://localhost:3140")).toBe(true);
    expect(isAddressLine("✓ Ready in 542ms")).toBe(false);
  });
});
