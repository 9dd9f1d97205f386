import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as topups from "@/app/api/desk/topups/route";
import * as withdrawals from "@/app/api/desk/withdrawals/route";
import { type Harness, PASSWORDS, startHarness } from "@/lib/testing/console-harness";

/** Desk writes carry the desk as the records' device_id (real Integration API, in-process). */

let h: Harness;
let cookie: string;
let nfc: string;

beforeAll(async () => {
  h = await startHarness();
  cookie = (await h.signIn("supervisor", PASSWORDS.supervisor)).cookie;
  const active = await h.api!.get<{ data: { nfc: string }[] }>("/v1/wristbands?status=active&limit=1", h.key);
  nfc = active.body.data[0]!.nfc;
});
afterAll(async () => {
  await h?.close();
});

const body = (desk: unknown) => ({
  code: nfc,
  amount: 1500,
  payment_method: "cash",
  idempotency_key: crypto.randomUUID(),
  desk,
});

async function deviceOf(topupId: string): Promise<string | null> {
  const all = await h.api!.walk<{ id: string; device_id: string | null }>("/v1/topups", h.key);
  return all.find((t) => t.id === topupId)?.device_id ?? null;
}

describe("desk writes", () => {
  it("send the desk chosen on the screen as device_id, top-ups and withdrawals alike", async () => {
    const quote = await h.api!.get<{ data: { bonus_amount: number; rule: { id: string } | null }[] }>(
      `/v1/topup-bonuses/quote?amounts=1500&code=${nfc}`,
      h.key,
    );
    const { bonus_amount, rule } = quote.body.data[0]!;
    const topup = await h.call(topups, "POST", "/api/desk/topups", {
      cookie,
      body: { ...body("Main gate desk 2"), bonus_amount, bonus_rule: rule?.id ?? null },
    });
    expect(topup.status).toBe(201);
    const { topup: made } = (await topup.json()) as { topup: { id: string } };
    expect(await deviceOf(made.id)).toBe("Main gate desk 2");

    const withdrawal = await h.call(withdrawals, "POST", "/api/desk/withdrawals", {
      cookie,
      body: body("Refunds 1"),
    });
    expect(withdrawal.status).toBe(201);
    expect(await deviceOf(((await withdrawal.json()) as { topup: { id: string } }).topup.id)).toBe(
      "Refunds 1",
    );
  });

  it("refuse a write without a valid desk name (400, param desk)", async () => {
    for (const desk of [undefined, "", " ", "x".repeat(41), "desk\u202E1", "<b>desk</b>"]) {
      const res = await h.call(withdrawals, "POST", "/api/desk/withdrawals", { cookie, body: body(desk) });
      expect(res.status, String(desk)).toBe(400);
      expect(((await res.json()) as { error: { param: string } }).error.param).toBe("desk");
    }
  });
});
