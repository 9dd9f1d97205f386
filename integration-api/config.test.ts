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
    ["API_SIMULATOR", "true"],
    ["API_TRUST_PROXY", "many"],
    ["API_DATABASE_URL", "mysql://x"],
    ["API_ADMIN_TOKEN", "short"],
  ])("a bad %s=%s stops start-up with a message naming it", (name, value) => {
    expect(() => loadApiConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadApiConfig({ [name]: value })).toThrow(name);
  });

  it("reads proxy hops as a number, true meaning one", () => {
    expect(loadApiConfig({ API_TRUST_PROXY: "true" }).API_TRUST_PROXY).toBe(1);
    expect(loadApiConfig({ API_TRUST_PROXY: "2" }).API_TRUST_PROXY).toBe(2);
  });
});
