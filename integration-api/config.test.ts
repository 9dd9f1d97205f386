import { describe, expect, it } from "vitest";
import { ConfigError, isSandbox, loadApiConfig } from "./config";

describe("service configuration", () => {
  it("has the documented defaults", () => {
    const config = loadApiConfig({});
    expect(config).toMatchObject({
      API_PORT: 4010,
      API_DATA_DIR: ".data/api",
      API_ENVIRONMENT: "test",
      API_SEED: "demo",
      API_SEED_SCALE: 1,
      API_SEED_TIME_ZONE: "Europe/Madrid",
      API_SIMULATOR: "on",
      API_TRUST_PROXY: 0,
    });
    expect(config.API_DATABASE_URL).toBeUndefined();
    expect(isSandbox(config)).toBe(true);
    expect(isSandbox(loadApiConfig({ API_ENVIRONMENT: "live" }))).toBe(false);
  });

  it.each([
    ["API_PORT", "http"],
    ["API_PORT", "70000"],
    ["API_ENVIRONMENT", "prod"],
    ["API_SEED", "yes"],
    ["API_SEED_SCALE", "-1"],
    ["API_SEED_TIME_ZONE", "Mars/Olympus"],
    ["API_SIMULATOR", "true"],
    ["API_TRUST_PROXY", "many"],
    ["API_DATABASE_URL", "mysql://x"],
    ["API_ADMIN_TOKEN", "short"],
    ["SANDBOX_START_AT", "25:00"],
    ["SANDBOX_START_AT", "11pm"],
    ["SANDBOX_START_AT", "2026-07-11T21:30:00"],
    ["API_SIMULATOR_SEED", "-3"],
  ])("a bad %s=%s stops start-up with a message naming it", (name, value) => {
    expect(() => loadApiConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadApiConfig({ [name]: value })).toThrow(name);
  });

  it("takes SANDBOX_START_AT only for a sandbox", () => {
    expect(loadApiConfig({ SANDBOX_START_AT: "23:30" }).SANDBOX_START_AT).toBe("23:30");
    expect(loadApiConfig({ SANDBOX_START_AT: "2026-07-11T21:30:00Z" }).SANDBOX_START_AT).toBe(
      "2026-07-11T21:30:00Z",
    );
    expect(() => loadApiConfig({ SANDBOX_START_AT: "23:30", API_ENVIRONMENT: "live" })).toThrow(
      "SANDBOX_START_AT",
    );
  });

  it("keeps its store inside DATA_DIR unless API_DATA_DIR says otherwise", () => {
    expect(loadApiConfig({ DATA_DIR: ".data/e2e-sec" }).API_DATA_DIR).toBe(".data/e2e-sec/api");
    expect(loadApiConfig({ DATA_DIR: "/srv/fest/" }).API_DATA_DIR).toBe("/srv/fest/api");
    expect(loadApiConfig({ DATA_DIR: "/srv/fest", API_DATA_DIR: "/var/api" }).API_DATA_DIR).toBe("/var/api");
  });

  it("reads proxy hops as a number, true meaning one", () => {
    expect(loadApiConfig({ API_TRUST_PROXY: "true" }).API_TRUST_PROXY).toBe(1);
    expect(loadApiConfig({ API_TRUST_PROXY: "2" }).API_TRUST_PROXY).toBe(2);
  });
});
