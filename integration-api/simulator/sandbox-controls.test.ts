import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, TEST_ADMIN_TOKEN } from "../testing/test-api";

type Api = Awaited<ReturnType<typeof createTestApi>>;

/**
 * The sandbox's controls of the simulator (`/admin/simulator/*`): a late sale into a past night, a
 * terminal offline and back in a burst, a refund spike.
 */
describe("sandbox controls of the simulator", () => {
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

  const post = (target: Api, path: string, body: unknown = {}, token = TEST_ADMIN_TOKEN) =>
    target.request<Record<string, unknown> & { error?: { code: string } }>(`/admin/simulator${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  const salesOf = async (device: string, createdFrom: Date) =>
    api.db.query<{ occurred_at: string; created_at: string }>(
      "select occurred_at, created_at from sales where device_id = $1 and created_at >= $2",
      [device, createdFrom.toISOString()],
    );

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
    const res = await post(api, "/late-sale", {
      occurred_at: occurred,
      device_id: "bar-late",
      unit_price: 1234,
    });
    expect(res.status).toBe(201);
    const sale = (
      await api.walk<{ id: string; day_id: string; occurred_at: string; device_id: string; total: number }>(
        `/v1/transactions?day_id=${night.id}`,
        key,
      )
    ).find((x) => x.id === (res.body.id as string));
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
    expect(
      (await post(api, "/late-sale", { occurred_at: "2026-07-10T20:00:00Z", device_id: "x" }, "wrong"))
        .status,
    ).toBe(401);
    expect((await post(api, "/late-sale", { occurred_at: "yesterday", device_id: "x" })).status).toBe(400);
    expect(
      (await post(plain, "/late-sale", { occurred_at: "2026-07-10T20:00:00Z", device_id: "x" })).status,
    ).toBe(404);
  });
  it("takes a bar offline: its sales wait in its buffer, then reach the server in one burst", async () => {
    const from = new Date();
    const off = await post(api, "/terminals/bar-02/offline", { minutes: 30 });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ object: "terminal_control", device_id: "bar-02", state: "offline" });
    for (let i = 0; i < 400; i++) await api.simulator!.step();
    expect(await salesOf("bar-02", from)).toEqual([]); // nothing reached the server
    expect(
      (await api.db.query("select 1 from sales where created_at >= $1", [from.toISOString()])).length,
    ).toBeGreaterThan(0);

    const back = new Date();
    const on = await post(api, "/terminals/bar-02/online");
    expect(on.status).toBe(200);
    const sent = on.body.sent as number;
    expect(sent).toBeGreaterThan(0);
    const burst = await salesOf("bar-02", from);
    expect(burst).toHaveLength(sent);
    for (const s of burst) {
      expect(Date.parse(s.created_at)).toBeGreaterThanOrEqual(back.getTime() - 5);
      expect(Date.parse(s.occurred_at)).toBeLessThanOrEqual(Date.parse(s.created_at));
    }
    // online again: its next sales arrive as they happen
    const online = new Date(Date.now() + 5);
    for (let i = 0; i < 200; i++) await api.simulator!.step();
    const after = await salesOf("bar-02", online);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((s) => Date.parse(s.occurred_at) === Date.parse(s.created_at))).toBe(true);
  });

  it("makes a refund spike at a refund desk", async () => {
    const count = async () =>
      Number(
        (
          await api.db.query<{ n: number }>(
            "select count(*)::int as n from topups where direction = 'withdraw' and device_id = 'refund-02'",
          )
        )[0]!.n,
      );
    const before = await count();
    const res = await post(api, "/refund-spike", { device_id: "refund-02", count: 6 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: "refund_spike", device_id: "refund-02" });
    const made = res.body.withdrawals as number;
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThanOrEqual(6);
    expect((await count()) - before).toBe(made);
  });

  it("refuses an unknown terminal, a bad body, a missing token, and does not exist outside the sandbox", async () => {
    const unknown = await post(api, "/terminals/nope-99/offline");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe("terminal_not_found");
    const bad = await post(api, "/terminals/bar-01/offline", { minutes: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.code).toBe("invalid_parameter");
    expect((await post(api, "/refund-spike", { count: 1000 })).status).toBe(400);
    expect((await post(api, "/terminals/bar-01/offline", {}, "wrong")).status).toBe(401);
    expect((await post(plain, "/terminals/bar-01/offline")).status).toBe(404);
  });
});
