import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, TEST_ADMIN_TOKEN } from "../testing/test-api";

type Api = Awaited<ReturnType<typeof createTestApi>>;

describe("POST /admin/simulator/late-sale (sandbox only)", () => {
  let api: Api;
  let plain: Api;
  beforeAll(async () => {
    api = await createTestApi({ simulator: true });
    plain = await createTestApi();
  });
  afterAll(async () => {
    await api?.close();
    await plain?.close();
  });

  const post = (target: Api, body: unknown, token = TEST_ADMIN_TOKEN) =>
    target.request<{ id: string; error?: { code: string } }>("/admin/simulator/late-sale", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("records a sale that happened in a past night and reaches the server now", async () => {
    const { key } = await api.createKey({ scopes: ["*"], activate: true });
    const days = (await api.get<{ data: { id: string; starts_at: string }[] }>("/v1/days", key)).body.data;
    const night = days[0]!;
    const before = (
      await api.get<{ sales: { count: number; total: number } }>(
        `/v1/reports/sales-summary?day_id=${night.id}`,
        key,
      )
    ).body.sales;
    const occurred = new Date(Date.parse(night.starts_at) + 3600_000).toISOString();
    const res = await post(api, { occurred_at: occurred, device_id: "bar-late", unit_price: 1234 });
    expect(res.status).toBe(201);
    const sale = (
      await api.walk<{ id: string; day_id: string; occurred_at: string; device_id: string; total: number }>(
        `/v1/transactions?day_id=${night.id}`,
        key,
      )
    ).find((x) => x.id === res.body.id);
    expect(sale).toMatchObject({
      day_id: night.id,
      occurred_at: occurred,
      device_id: "bar-late",
      total: 1234,
      payment_method: "cash",
    });
    const after = (
      await api.get<{ sales: { count: number; total: number } }>(
        `/v1/reports/sales-summary?day_id=${night.id}`,
        key,
      )
    ).body.sales;
    expect(after).toMatchObject({ count: before.count + 1, total: before.total + 1234 });
  });

  it("needs the admin token and a valid body, and does not exist without the simulator", async () => {
    expect((await post(api, { occurred_at: "2026-07-10T20:00:00Z", device_id: "x" }, "wrong")).status).toBe(
      401,
    );
    expect((await post(api, { occurred_at: "yesterday", device_id: "x" })).status).toBe(400);
    expect((await post(plain, { occurred_at: "2026-07-10T20:00:00Z", device_id: "x" })).status).toBe(404);
  });
});
