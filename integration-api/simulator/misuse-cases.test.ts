import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, TEST_ADMIN_TOKEN } from "../testing/test-api";
import { misuseCaseKinds } from "./misuse-cases";

type Api = Awaited<ReturnType<typeof createTestApi>>;

/** The sandbox's misuse controls write genuine records through the service's write paths. */
describe("POST /admin/simulator/misuse/{kind}", () => {
  let api: Api;
  beforeAll(async () => {
    api = await createTestApi({ simulator: true });
  });
  afterAll(async () => {
    await api?.close();
  });

  const post = (path: string, token = TEST_ADMIN_TOKEN) =>
    api.request<Record<string, unknown> & { error?: { code: string } }>(`/admin/simulator${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });

  it("writes each case's records", async () => {
    for (const kind of misuseCaseKinds) {
      const before = await api.db.query<{ n: number }>(
        "select (select count(*) from scans)::int + (select count(*) from sales)::int as n",
      );
      const res = await post(`/misuse/${kind}`);
      expect(res.status, kind).toBe(201);
      expect(res.body).toMatchObject({ object: "misuse_case", kind });
      const after = await api.db.query<{ n: number }>(
        "select (select count(*) from scans)::int + (select count(*) from sales)::int as n",
      );
      expect(after[0]!.n - before[0]!.n, kind).toBe(res.body.records);
    }
    const walk = await api.db.query<{ allowed: boolean; device_id: string }>(
      "select allowed, device_id from scans where kind = 'access_check' order by created_at desc, occurred_at desc limit 14",
    );
    expect(walk.filter((s) => s.device_id === "gate-05")).toHaveLength(12);
  });

  it("an unknown kind is a 400, no admin token a 401", async () => {
    expect((await post("/misuse/teleport")).body.error?.code).toBe("invalid_parameter");
    expect((await post("/misuse/double_swipe", "nope")).status).toBe(401);
  });
});
