import { describe, expect, it } from "vitest";
import { DashboardConfigError, parseDashboardConfig } from "./config";

const KEY = `eak_test_${"a".repeat(43)}`;
const SECRET = "s".repeat(32);

describe("dashboard configuration", () => {
  it("has the documented defaults", () => {
    const config = parseDashboardConfig({ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET });
    expect(config).toMatchObject({
      CASHLESS_API_URL: "http://127.0.0.1:4010/v1",
      DATA_DIR: ".data",
      SYNC_INTERVAL_S: 30,
      SYNC_TAIL_S: 2.5,
      SANDBOX: "off",
      TRUST_PROXY: 0,
      LOOKUP_BUDGET: 30,
      NIGHT_TOLERANCE_LINE: 500,
      NIGHT_TOLERANCE_NIGHT: 2000,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PUBLIC_URL).toBeUndefined();
  });

  it.each([
    [{ SESSION_SECRET: SECRET }, "CASHLESS_API_KEY"],
    [{ CASHLESS_API_KEY: KEY }, "SESSION_SECRET"],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: "short" }, "SESSION_SECRET"],
    [{ CASHLESS_API_KEY: "not-a-key", SESSION_SECRET: SECRET }, "CASHLESS_API_KEY"],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, CASHLESS_API_URL: "ftp://x" }, "CASHLESS_API_URL"],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, SYNC_INTERVAL_S: "0" }, "SYNC_INTERVAL_S"],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, SYNC_TAIL_S: "-1" }, "SYNC_TAIL_S"],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, SYNC_TAIL_S: "soon" }, "SYNC_TAIL_S"],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, TRUST_PROXY: "yes" }, "TRUST_PROXY"],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, TRUST_PROXY: "11" }, "TRUST_PROXY"],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, LOOKUP_BUDGET: "0" }, "LOOKUP_BUDGET"],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, NIGHT_TOLERANCE_LINE: "-1" }, "NIGHT_TOLERANCE_LINE"],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, NIGHT_TOLERANCE_LINE: "5.5" }, "NIGHT_TOLERANCE_LINE"],
    [
      { CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, NIGHT_TOLERANCE_NIGHT: "a lot" },
      "NIGHT_TOLERANCE_NIGHT",
    ],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, PUBLIC_URL: "console.example" }, "PUBLIC_URL"],
    [{ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, PUBLIC_URL: "ftp://console.example" }, "PUBLIC_URL"],
    [
      { CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, PUBLIC_URL: "https://console.example/ops" },
      "PUBLIC_URL",
    ],
    [
      { CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, PUBLIC_URL: "https://a:b@console.example" },
      "PUBLIC_URL",
    ],
  ])("refuses %o naming %s", (env, name) => {
    expect(() => parseDashboardConfig({ NODE_ENV: "production", ...env })).toThrow(DashboardConfigError);
    expect(() => parseDashboardConfig({ NODE_ENV: "production", ...env })).toThrow(name);
  });

  it("keeps PUBLIC_URL as an origin (scheme, host, port)", () => {
    const read = (v: string) =>
      parseDashboardConfig({ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, PUBLIC_URL: v }).PUBLIC_URL;
    expect(read("https://Console.Example/")).toBe("https://console.example");
    expect(read("http://10.0.0.5:3000")).toBe("http://10.0.0.5:3000");
    expect(read("https://console.example:443")).toBe("https://console.example");
  });

  it("reads TRUST_PROXY as proxy hops, true meaning one", () => {
    const read = (v: string) =>
      parseDashboardConfig({ CASHLESS_API_KEY: KEY, SESSION_SECRET: SECRET, TRUST_PROXY: v }).TRUST_PROXY;
    expect([read("true"), read("false"), read("2")]).toEqual([1, 0, 2]);
  });
});
