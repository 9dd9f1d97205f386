import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../testing/test-api";

/** createServices({ clock }): the service's rate-limit windows follow the clock it is given. */

let api: TestApi;
let now = Date.parse("2026-07-11T20:30:00.000Z");

beforeAll(async () => {
  api = await createTestApi({ clock: () => new Date(now) });
});

afterAll(async () => {
  await api?.close();
});

describe("rate limiter clock", () => {
  it("opens the next window when the injected clock, not the wall clock, passes 60 s", async () => {
    const { key } = await api.createKey({ scopes: ["event.read"], rate_limits: { read: 2 } });
    expect((await api.get("/v1/days", key)).status).toBe(200);
    now += 15_000;
    expect((await api.get("/v1/days", key)).status).toBe(200);
    const refused = await api.get("/v1/days", key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("45");

    now += 44_999;
    expect((await api.get("/v1/days", key)).status).toBe(429);
    now += 1;
    const next = await api.get("/v1/days", key);
    expect(next.status).toBe(200);
    expect(next.headers.get("x-ratelimit-remaining")).toBe("1");
    expect(next.headers.get("x-ratelimit-reset")).toBe("60");
  });
});
