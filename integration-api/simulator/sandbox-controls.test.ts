import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SandboxClock } from "../../lib/contract/clock";
import { createApp } from "../app";
import { createTestApi, TEST_ADMIN_TOKEN } from "../testing/test-api";
import type { Sandbox } from "./sandbox-controls";

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

/**
 * Time, not waiting (`/admin/sandbox/*`): the clock moves forward in the service and in the console
 * that follows it before the answer; what the service writes is stamped by that clock; a sync cycle
 * is asked of the console; the simulator's offline terminals are drained.
 */
describe("sandbox controls of time", () => {
  let api: Api;
  let app: ReturnType<typeof createApp>;
  const clock = SandboxClock.startingAt(new Date("2026-07-11T21:30:00Z"));
  const sandbox: Sandbox = { clock, console: null };
  const followed: number[] = [];
  clock.onChange((offset) => {
    followed.push(offset);
  });
  beforeAll(async () => {
    api = await createTestApi({ simulator: true, clock: clock.now, now: new Date("2026-07-11T21:30:00Z") });
    app = createApp(api.services, { simulator: api.simulator, sandbox, log: () => undefined });
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = async (method: string, path: string, body?: unknown, token = TEST_ADMIN_TOKEN) => {
    const res = await app.request(`/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown> & { error?: { code: string; message: string } },
    };
  };

  it("tells the sandbox's instant, and moves it forward for the service and its follower", async () => {
    const before = await call("GET", "/sandbox/clock");
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ object: "sandbox_clock", console: false });
    const moved = await call("POST", "/sandbox/clock", { advance_seconds: 3600 });
    expect(moved.status).toBe(200);
    expect(
      Date.parse(moved.body.now as string) - Date.parse(before.body.now as string),
    ).toBeGreaterThanOrEqual(3_600_000);
    expect(followed.at(-1)).toBe(clock.offsetMs);
    // A ticket made now is stamped by the moved clock.
    const { key } = await api.createKey({ scopes: ["*"], activate: true });
    const made = await api.request<{ data: { created_at: string }[] }>("/v1/tickets", {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
      },
      body: JSON.stringify({
        tickets: [
          {
            code: `CLOCK-${crypto.randomUUID().slice(0, 8)}`,
            ticket_type_id: (await api.db.query<{ id: string }>("select id from ticket_types limit 1"))[0]!
              .id,
            attendee: { name: "Clock Test", email: "clock@example.com" },
            valid_days: (await api.db.query<{ id: string }>("select id from days limit 1")).map((d) => d.id),
          },
        ],
      }),
    });
    expect(made.status, made.text).toBe(201);
    const stamped = Date.parse(made.body.data[0]!.created_at);
    expect(Math.abs(stamped - clock.now().getTime())).toBeLessThan(60_000);
    expect(stamped).toBeGreaterThanOrEqual(Date.parse(moved.body.now as string) - 1);
  });

  it("refuses a clock moved back, by nothing or by too much, with the rule in words", async () => {
    for (const advance_seconds of [0, -60, 1.5, 8 * 86_400, "60"]) {
      const res = await call("POST", "/sandbox/clock", { advance_seconds });
      expect(res.status, String(advance_seconds)).toBe(400);
      expect(res.body.error?.code).toBe("invalid_parameter");
      expect(res.body.error?.message).toContain("only moves forward");
    }
    expect((await call("GET", "/sandbox/clock", undefined, "wrong")).status).toBe(401);
  });

  it("asks the attached console for a sync cycle now, and says when none is attached", async () => {
    const none = await call("POST", "/sandbox/sync", {});
    expect(none.status).toBe(409);
    expect(none.body.error?.code).toBe("console_not_attached");
    let cycles = 0;
    sandbox.console = {
      syncNow: async () => {
        cycles++;
      },
    };
    const synced = await call("POST", "/sandbox/sync", {});
    expect(synced.status).toBe(200);
    expect(synced.body.object).toBe("sandbox_sync");
    expect(cycles).toBe(1);
    sandbox.console = null;
  });

  it("makes an offline stand sell into its buffer, and drains the buffers now, stamped by the sandbox clock", async () => {
    await call("POST", "/simulator/terminals/bar-03/offline", { minutes: 60 });
    const sold = await call("POST", "/simulator/terminals/bar-03/sales", { count: 4 });
    expect(sold.status).toBe(201);
    expect(sold.body).toMatchObject({ object: "terminal_sales", device_id: "bar-03", sales: 4 });
    const from = clock.now();
    const drained = await call("POST", "/simulator/drain", {});
    expect(drained.status).toBe(200);
    expect(drained.body.sent).toBeGreaterThanOrEqual(4);
    const burst = await api.db.query<{ occurred_at: string; created_at: string }>(
      "select occurred_at, created_at from sales where device_id = 'bar-03' and created_at >= $1",
      [from.toISOString()],
    );
    expect(burst.length).toBeGreaterThanOrEqual(4);
    for (const sale of burst) expect(Date.parse(sale.created_at)).toBeGreaterThanOrEqual(from.getTime());
    expect((await call("POST", "/simulator/drain", {})).body.sent).toBe(0);
    const gate = await call("POST", "/simulator/terminals/gate-01/sales", { count: 1 });
    expect(gate.status).toBe(400);
    expect(gate.body.error?.message).toContain("not a stand");
    expect((await call("POST", "/simulator/terminals/bar-03/sales", { count: 0 })).status).toBe(400);
  });
});
