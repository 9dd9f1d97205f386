import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as acknowledge from "@/app/api/alerts/[id]/acknowledge/route";
import * as alerts from "@/app/api/alerts/route";
import * as login from "@/app/api/auth/login/route";
import * as importStart from "@/app/api/import/route";
import * as sales from "@/app/api/live/sales/route";
import * as topups from "@/app/api/live/topups/route";
import * as signoff from "@/app/api/reconciliation/signoff/route";
import * as waivers from "@/app/api/reconciliation/waivers/route";
import * as terminal from "@/app/api/terminals/[device]/route";
import * as checkIn from "@/app/api/tickets/[code]/check-in/route";
import { upsertSales } from "@/lib/server/store/mirror";
import { type Harness, PASSWORDS, type RouteModule, startHarness } from "@/lib/testing/console-harness";
import { insertEventDays, saleRecord } from "@/lib/testing/mirror-records";

/**
 * Bad input is a 400 with a stable code at every route handler (never a store error's 500), and
 * identifiers are matched as stored: a device id with a leading space is a device id.
 */

const DAY = { id: "day_1", starts_at: "2026-07-10T10:00:00.000Z", ends_at: "2026-07-11T04:00:00.000Z" };
const SPACED = " bar-1";

let h: Harness;
let manager: string;
let alertId: string;
beforeAll(async () => {
  h = await startHarness({ upstream: false });
  manager = (await h.signIn("manager", PASSWORDS.manager)).cookie;
  await insertEventDays(h.db, [DAY]);
  // "bar-2" sold until 03:50; " bar-1" went silent at 23:00, so the night waits for it.
  await upsertSales(h.db, [
    ...Array.from({ length: 6 }, (_, i) =>
      saleRecord({ device: "bar-2", day: DAY.id, occurred: `2026-07-11T03:${50 - i * 5}:00Z` }),
    ),
    ...Array.from({ length: 6 }, (_, i) =>
      saleRecord({ device: SPACED, day: DAY.id, occurred: `2026-07-10T${18 + i}:00:00Z` }),
    ),
  ]);
  const [alert] = await h.db.query<{ id: string }>(
    `insert into alerts (kind, subject, severity, state, first_seen, last_seen, figures, link)
     values ('sync_stalled', 'sync', 'warning', 'open', now(), now(), '{}'::jsonb, '/connection') returning id::text`,
  );
  alertId = alert!.id;
});
afterAll(async () => {
  await h?.close();
});

const NUL = "a\u0000b";
const SURROGATE = "a\ud800b";
const uuid = () => crypto.randomUUID();

async function expect400(
  module: RouteModule,
  method: "GET" | "POST" | "PUT",
  path: string,
  options: { body?: unknown; params?: Record<string, string>; cookie?: string } = {},
  param?: string,
) {
  const res = await h.call(module, method, path, { cookie: manager, ...options });
  const body = (await res.json()) as { error: { code: string; param?: string } };
  expect(res.status, `${method} ${path} ${JSON.stringify(options.body ?? options.params)}`).toBe(400);
  expect(body.error.code).toBe("invalid_parameter");
  if (param) expect(body.error.param).toBe(param);
}

describe("bad input is a 400 with a stable code", () => {
  it("cursors are parsed and checked: MXx4, 99999, 'Tue 2026'", async () => {
    for (const cursor of ["MXx4", "99999", "Tue 2026", "MjAyNi0wMi0zMFQwMDowMDowMC4wMDBafGE"]) {
      await expect400(
        sales,
        "GET",
        `/api/live/sales?day_id=day_1&cursor=${encodeURIComponent(cursor)}`,
        {},
        "cursor",
      );
      await expect400(
        topups,
        "GET",
        `/api/live/topups?day_id=day_1&cursor=${encodeURIComponent(cursor)}`,
        {},
        "cursor",
      );
    }
  });

  it("an alert id that is not one: ?alert=abc, an overflowing number; a real one reads that alert", async () => {
    for (const bad of ["abc", "1".repeat(19), "-1"])
      await expect400(alerts, "GET", `/api/alerts?alert=${encodeURIComponent(bad)}`, {}, "alert");
    const res = await h.call(alerts, "GET", `/api/alerts?alert=${alertId}`, { cookie: manager });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { alerts: { id: string }[] }).alerts.map((a) => a.id)).toEqual([alertId]);
  });

  it("NUL and lone surrogates in every typed body field: comments, reasons, the username, codes", async () => {
    for (const bad of [NUL, SURROGATE]) {
      await expect400(
        acknowledge,
        "POST",
        `/api/alerts/${alertId}/acknowledge`,
        { params: { id: alertId }, body: { comment: bad } },
        "comment",
      );
      await expect400(
        waivers,
        "POST",
        "/api/reconciliation/waivers",
        { body: { day_id: DAY.id, device_id: "bar-2", reason: `because ${bad}` } },
        "reason",
      );
      await expect400(
        waivers,
        "POST",
        "/api/reconciliation/waivers",
        { body: { day_id: DAY.id, device_id: `bar${bad}`, reason: "broken terminal" } },
        "device_id",
      );
      await expect400(
        signoff,
        "POST",
        "/api/reconciliation/signoff",
        { body: { day_id: DAY.id, idempotency_key: uuid(), comment: `ok ${bad}`, counted: [] } },
        "comment",
      );
      await expect400(
        signoff,
        "POST",
        "/api/reconciliation/signoff",
        {
          body: {
            day_id: DAY.id,
            idempotency_key: uuid(),
            comment: "",
            counted: [{ device_id: bad, payment_method: "cash", counted: 1 }],
          },
        },
        "counted.0.device_id",
      );
      await expect400(
        login,
        "POST",
        "/api/auth/login",
        { cookie: "", body: { username: `manager${bad}`, password: "whatever-long" } },
        "username",
      );
      await expect400(
        checkIn,
        "POST",
        "/api/tickets/T-1/check-in",
        { params: { code: "T-1" }, body: { nfc: `NFC${bad}`, idempotency_key: uuid() } },
        "nfc",
      );
      await expect400(
        checkIn,
        "POST",
        "/api/tickets/T-1/check-in",
        { params: { code: "T-1" }, body: { nfc: "NFC-1", uhf: `U${bad}`, idempotency_key: uuid() } },
        "uhf",
      );
      await expect400(
        importStart,
        "POST",
        "/api/import",
        { body: { file_name: `tickets${bad}.csv`, csv: "code\n" } },
        "file_name",
      );
      await expect400(
        terminal,
        "PUT",
        "/api/terminals/x",
        { params: { device: `bar${bad}` }, body: { station: "bar" } },
        "device",
      );
    }
    // Nothing of it was stored: no acknowledgement, waiver, sign-off or station.
    const [counts] = await h.db.query<{ acks: number; waivers: number; signoffs: number; stations: number }>(
      `select (select count(*)::int from alerts where acknowledged_at is not null) as acks,
              (select count(*)::int from recon_waivers) as waivers,
              (select count(*)::int from recon_signoffs) as signoffs,
              (select count(*)::int from terminal_stations) as stations`,
    );
    expect(counts).toEqual({ acks: 0, waivers: 0, signoffs: 0, stations: 0 });
  });
});

describe("terminals' device ids", () => {
  it("a station override for an unknown device is 404 and stores and audits nothing", async () => {
    const res = await h.call(terminal, "PUT", "/api/terminals/bar-404", {
      cookie: manager,
      params: { device: "bar-404" },
      body: { station: "food" },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect(await h.db.query("select * from terminal_stations")).toEqual([]);
    expect(await h.db.query("select * from audit_log where action = 'terminals.station'")).toEqual([]);
    // Nor does a device that differs from a known one by its spaces exist: " bar-1" is not "bar-1".
    const trimmed = await h.call(terminal, "PUT", "/api/terminals/bar-1", {
      cookie: manager,
      params: { device: "bar-1" },
      body: { station: "food" },
    });
    expect(trimmed.status).toBe(404);
  });

  it("a device id with a leading space is found as stored: its page, its station, its waiver", async () => {
    const page = await h.call(terminal, "GET", `/api/terminals/${encodeURIComponent(SPACED)}`, {
      cookie: manager,
      params: { device: SPACED },
    });
    expect(page.status).toBe(200);
    expect(((await page.json()) as { device_id: string }).device_id).toBe(SPACED);

    const changed = await h.call(terminal, "PUT", `/api/terminals/${encodeURIComponent(SPACED)}`, {
      cookie: manager,
      params: { device: SPACED },
      body: { station: "food" },
    });
    expect(changed.status).toBe(200);
    expect(await h.db.query("select device_id, station from terminal_stations")).toEqual([
      { device_id: SPACED, station: "food" },
    ]);
    expect(
      await h.db.query("select target, outcome from audit_log where action = 'terminals.station'"),
    ).toEqual([{ target: SPACED, outcome: "ok" }]);

    // The night waits for " bar-1" (silent since 23:00): it is waived by its own id, spaces and all.
    const waived = await h.call(waivers, "POST", "/api/reconciliation/waivers", {
      cookie: manager,
      body: { day_id: DAY.id, device_id: SPACED, reason: "Counted by hand" },
    });
    expect(waived.status).toBe(201);
    const night = (await waived.json()) as { terminals: { device_id: string; waiver: unknown }[] };
    expect(night.terminals.find((t) => t.device_id === SPACED)?.waiver).toMatchObject({
      reason: "Counted by hand",
    });
    expect(await h.db.query("select device_id from recon_waivers")).toEqual([{ device_id: SPACED }]);
  });
});
