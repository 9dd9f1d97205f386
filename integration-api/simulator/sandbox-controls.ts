import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { SandboxClock } from "../../lib/contract/clock";
import { ApiError } from "../errors";
import { requireAdmin } from "../http/admin-auth";
import type { AppEnv } from "../http/context";
import { misuseCaseKinds } from "./misuse-cases";
import type { TerminalSimulator } from "./terminal-simulator";

/**
 * The sandbox's clock and the console that follows it (scripts/start.ts attaches the console it
 * starts: it hears every move of the clock, and runs a sync cycle on demand).
 */
export interface Sandbox {
  clock: SandboxClock;
  console: { syncNow(): Promise<void> } | null;
}

/**
 * Sandbox only, behind the admin token: time, not waiting (docs/testing.md). A test moves the clock and
 * asks for what the product does on a schedule instead of waiting for it.
 *
 * - `GET /admin/sandbox/clock`: 200 `{"object": "sandbox_clock", "now", "offset_ms", "console"}`.
 * - `POST /admin/sandbox/clock` `{"advance_seconds": 1..604800}`: the clock moves forward (never
 *   back) in this service and in the attached console before the answer; 200 as above.
 * - `POST /admin/sandbox/sync`: the attached console runs a whole sync cycle now (the backfill
 *   included) and its after-cycle rules; 200 `{"object": "sandbox_sync", "now"}` once done, 409
 *   `console_not_attached` when no console follows this service.
 */
const ADVANCE_RULE =
  "advance_seconds must be a whole number of seconds from 1 to 604800 (the clock only moves forward).";
const AdvanceBody = z.object({
  advance_seconds: z
    .number({ error: ADVANCE_RULE })
    .int(ADVANCE_RULE)
    .min(1, ADVANCE_RULE)
    .max(7 * 86_400, ADVANCE_RULE),
});

export function registerClockControls(admin: OpenAPIHono<AppEnv>, sandbox: Sandbox) {
  const clockView = () => ({
    object: "sandbox_clock",
    now: sandbox.clock.now().toISOString(),
    offset_ms: sandbox.clock.offsetMs,
    console: sandbox.console !== null,
  });
  admin.get("/sandbox/clock", requireAdmin, (c) => c.json(clockView()));
  admin.post("/sandbox/clock", requireAdmin, async (c) => {
    const { advance_seconds } = await parseBody(await c.req.json().catch(() => ({})), AdvanceBody);
    await sandbox.clock.advance(advance_seconds * 1000);
    return c.json(clockView());
  });
  admin.post("/sandbox/sync", requireAdmin, async (c) => {
    if (!sandbox.console)
      throw new ApiError(
        "console_not_attached",
        "No console follows this sandbox (start it with npm start).",
      );
    await sandbox.console.syncNow();
    return c.json({ object: "sandbox_sync", now: sandbox.clock.now().toISOString() });
  });
}

/**
 * Sandbox only (registered when API_SIMULATOR=on), behind the admin token: the simulator's
 * terminals on demand, so that what the console must notice can be shown and tested.
 *
 * - `POST /admin/simulator/terminals/{device_id}/offline` `{"minutes"?: 1..1440 (default 1440)}`:
 *   the terminal loses its connection and keeps working into its buffer. 200 `{"object":
 *   "terminal_control", "device_id", "state": "offline", "until"}`.
 * - `POST /admin/simulator/terminals/{device_id}/online`: its connection is back; its buffer is sent
 *   now in one burst (`occurred_at` kept, `created_at` now). 200 `{…, "state": "online", "sent"}`.
 * - `POST /admin/simulator/terminals/{device_id}/sales` `{"count"?: 1..100 (default 5)}`: that stand
 *   sells now (into its buffer while offline). 201 `{"object": "terminal_sales", "device_id", "sales"}`;
 *   400 for a device that is not a stand.
 * - `POST /admin/simulator/drain`: every offline terminal is back and sends its buffer now. 200
 *   `{"object": "simulator_drain", "sent"}` once written.
 * - `POST /admin/simulator/refund-spike` `{"device_id"?: a refund desk (default refund-01),
 *   "count"?: 1..200 (default 20)}`: that many withdrawals now. 201 `{"object": "refund_spike",
 *   "device_id", "withdrawals"}` (wristbands without balance are skipped, as a desk would).
 *
 * - `POST /admin/simulator/misuse/{kind}` (kind: impossible_walk, double_checkin, double_swipe,
 *   offline_double_spend, denied_burst): one case of misuse written now through the service's write
 *   paths (misuse-cases.ts). 201 `{"object": "misuse_case", "kind", "subject", "records"}`; 404
 *   `ticket_not_found` / `wristband_not_found` when no ticket or wristband fits the case now.
 *
 * An unknown device answers 404 `terminal_not_found`.
 */

const DeviceParam = z.string().min(1).max(100);
const OfflineBody = z.object({ minutes: z.number().int().min(1).max(1440).default(1440) });
const SalesBody = z.object({ count: z.number().int().min(1).max(100).default(5) });
const SpikeBody = z.object({
  device_id: DeviceParam.default("refund-01"),
  count: z.number().int().min(1).max(200).default(20),
});

async function parseBody<T>(raw: unknown, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError("invalid_parameter", issue?.message ?? "Invalid body.", issue?.path.join("."));
  }
  return parsed.data;
}

function deviceOf(simulator: TerminalSimulator, raw: string): string {
  const device = DeviceParam.safeParse(raw);
  if (!device.success || !simulator.deviceIds.includes(device.data))
    throw new ApiError("terminal_not_found", `The simulator has no terminal ${raw}.`);
  return device.data;
}

export function registerSandboxControls(admin: OpenAPIHono<AppEnv>, simulator: TerminalSimulator) {
  admin.post("/simulator/terminals/:device_id/offline", requireAdmin, async (c) => {
    const device = deviceOf(simulator, c.req.param("device_id"));
    const { minutes } = await parseBody(await c.req.json().catch(() => ({})), OfflineBody);
    simulator.takeOffline(device, minutes);
    const until = new Date(c.get("services").clock().getTime() + minutes * 60_000).toISOString();
    return c.json({ object: "terminal_control", device_id: device, state: "offline", until });
  });
  admin.post("/simulator/terminals/:device_id/sales", requireAdmin, async (c) => {
    const device = deviceOf(simulator, c.req.param("device_id"));
    const { count } = await parseBody(await c.req.json().catch(() => ({})), SalesBody);
    const made = await simulator.sellAt(device, count);
    if (made === null)
      throw new ApiError(
        "invalid_parameter",
        `${device} is not a stand (a bar, food or merch terminal).`,
        "device_id",
      );
    return c.json({ object: "terminal_sales", device_id: device, sales: made }, 201);
  });
  admin.post("/simulator/drain", requireAdmin, async (c) => {
    const sent = await simulator.drain();
    return c.json({ object: "simulator_drain", sent });
  });
  admin.post("/simulator/terminals/:device_id/online", requireAdmin, async (c) => {
    const device = deviceOf(simulator, c.req.param("device_id"));
    const sent = await simulator.bringBack(device);
    return c.json({ object: "terminal_control", device_id: device, state: "online", sent });
  });
  admin.post("/simulator/refund-spike", requireAdmin, async (c) => {
    const body = await parseBody(await c.req.json().catch(() => ({})), SpikeBody);
    const device = deviceOf(simulator, body.device_id);
    const withdrawals = await simulator.refundSpike(device, body.count);
    return c.json({ object: "refund_spike", device_id: device, withdrawals }, 201);
  });
  admin.post("/simulator/misuse/:kind", requireAdmin, async (c) => {
    const kind = z.enum(misuseCaseKinds).safeParse(c.req.param("kind"));
    if (!kind.success)
      throw new ApiError("invalid_parameter", `kind must be one of ${misuseCaseKinds.join(", ")}.`, "kind");
    return c.json(await simulator.injectMisuse(kind.data), 201);
  });
}
