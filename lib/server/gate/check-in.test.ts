import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as checkInRoute from "@/app/api/tickets/[code]/check-in/route";
import * as ticketRoute from "@/app/api/tickets/[code]/route";
import { TEST_NOW } from "@/integration-api/testing/test-api";
import { replaceDays, replaceTicketTypes, replaceZones, saveEvent } from "@/lib/server/store/mirror";
import type { Role } from "@/lib/shared/permissions";
import { type Harness, PASSWORDS, startHarness } from "@/lib/testing/console-harness";

/**
 * Check-in follows the gate's verdict on the server (issue 23): the route handler reads the ticket
 * live, judges it with the event's days at the dashboard's clock, and refuses a check-in on a day
 * the ticket is not valid for, unless the body says override and the role may override; the
 * override is in the audit log as one. The real Integration API, in-process; the clock injected.
 */

let h: Harness;
let now = TEST_NOW;
const cookies = {} as Record<Role, string>;
let days: { object: string; id: string; name: string; date: string; starts_at: string; ends_at: string }[] =
  [];
let typeId = "";
const ZONE = "Europe/Madrid";

beforeAll(async () => {
  h = await startHarness({ clock: () => now });
  const up = h.dashboard.upstream;
  await saveEvent(h.db, await up.event(), TEST_NOW);
  days = await up.days();
  await replaceDays(h.db, days as never);
  await replaceZones(h.db, await up.zones());
  const types = await up.ticketTypes();
  await replaceTicketTypes(h.db, types);
  typeId = types[0]!.id;
  for (const role of ["manager", "supervisor", "staff"] as const)
    cookies[role] = (await h.signIn(role, PASSWORDS[role])).cookie;
});
afterAll(async () => {
  await h?.close();
});

let serial = 0;
/** A fresh ticket valid on the days given by their index in the event (0 = Day 1). */
async function ticketValidOn(...dayIndexes: number[]): Promise<string> {
  const code = `CHK-${process.pid}-${Date.now().toString(36)}-${++serial}`.toUpperCase();
  const res = await h.api!.request("/v1/tickets", {
    method: "POST",
    headers: {
      authorization: `Bearer ${h.key}`,
      "content-type": "application/json",
      "idempotency-key": crypto.randomUUID(),
    },
    body: JSON.stringify({
      tickets: [
        {
          code,
          ticket_type_id: typeId,
          attendee: { name: "Gate Test", email: "gate@example.com" },
          valid_days: dayIndexes.map((i) => days[i]!.id),
        },
      ],
    }),
  });
  expect(res.status).toBe(201);
  return code;
}

function checkIn(role: Role, code: string, extra: Record<string, unknown> = {}) {
  return h.call(checkInRoute, "POST", `/api/tickets/${code}/check-in`, {
    cookie: cookies[role],
    params: { code },
    body: { nfc: `NFC-${code}`, idempotency_key: crypto.randomUUID(), ...extra },
  });
}

async function upstreamStatus(code: string): Promise<string> {
  return (await h.api!.get<{ status: string }>(`/v1/tickets/${code}`, h.key)).body.status;
}

async function auditOf(code: string) {
  return h.db.query<{ action: string; outcome: string; username: string; detail: Record<string, unknown> }>(
    "select action, outcome, username, detail from audit_log where target = $1 order by id",
    [code],
  );
}

/** Local time on the date of an event day (by index), in the event's zone. */
const onDayDate = (index: number, plusDays: number, time: string) =>
  DateTime.fromISO(`${days[index]!.date}T${time}`, { zone: ZONE }).plus({ days: plusDays }).toJSDate();

describe("a check-in on a day the ticket is not valid for", () => {
  it("is refused to staff (409 ticket_not_valid_today naming its days), nothing checked in, the refusal logged", async () => {
    now = TEST_NOW; // Day 3
    const code = await ticketValidOn(1);
    const res = await checkIn("staff", code);
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("ticket_not_valid_today");
    expect(error.message).toContain(`valid on ${days[1]!.name}`);
    expect(error.message).toContain(`today (${days[2]!.name})`);
    expect(await upstreamStatus(code)).toBe("active");
    expect(await auditOf(code)).toEqual([
      {
        action: "tickets.check_in",
        outcome: "ticket_not_valid_today",
        username: "staff",
        detail: { nfc: `NFC-${code}`, valid_days: [days[1]!.name], today: days[2]!.name },
      },
    ]);
  });

  it("is refused to staff even when the body says override (403): only supervisors and managers may", async () => {
    now = TEST_NOW;
    const code = await ticketValidOn(0);
    const res = await checkIn("staff", code, { override: true });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    expect(await upstreamStatus(code)).toBe("active");
    expect((await auditOf(code)).map((e) => e.outcome)).toEqual(["forbidden"]);
  });

  it("a supervisor is refused without the override, and checks it in with it: logged as an override with the valid days", async () => {
    now = TEST_NOW;
    const code = await ticketValidOn(0, 1);
    expect((await checkIn("supervisor", code)).status).toBe(409);
    const res = await checkIn("supervisor", code, { override: true });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { ticket: { status: string } }).ticket.status).toBe("used");
    expect(await upstreamStatus(code)).toBe("used");
    const [refused, override] = await auditOf(code);
    expect(refused).toMatchObject({ action: "tickets.check_in", outcome: "ticket_not_valid_today" });
    expect(override).toEqual({
      action: "tickets.check_in_override",
      outcome: "ok",
      username: "supervisor",
      detail: {
        nfc: `NFC-${code}`,
        override: true,
        valid_days: [days[0]!.name, days[1]!.name],
        today: days[2]!.name,
        status: "used",
      },
    });
  });

  it("a manager may override too", async () => {
    now = TEST_NOW;
    const code = await ticketValidOn(3);
    expect((await checkIn("manager", code, { override: true })).status).toBe(200);
    expect((await auditOf(code)).map((e) => e.action)).toEqual(["tickets.check_in_override"]);
  });
});

describe("a check-in on a day the ticket is valid for", () => {
  it("goes through for staff, logged as a plain check-in (an override flag changes nothing)", async () => {
    now = TEST_NOW;
    const code = await ticketValidOn(2);
    const res = await checkIn("staff", code, { override: true });
    expect(res.status).toBe(200);
    expect(await auditOf(code)).toMatchObject([{ action: "tickets.check_in", outcome: "ok", detail: {} }]);
    expect((await auditOf(code))[0]!.detail).not.toHaveProperty("override");
  });

  it("reads today from the dashboard's clock: Day 2's ticket is valid at 03:00 after Day 2, refused at 07:00", async () => {
    const code = await ticketValidOn(1);
    now = onDayDate(1, 1, "07:00"); // Day 2's night closed at 06:00: Day 3 is coming
    expect((await checkIn("staff", code)).status).toBe(409);
    now = onDayDate(1, 1, "03:00"); // still Day 2's night
    expect((await checkIn("staff", code)).status).toBe(200);
    now = TEST_NOW;
  });

  it("finds the ticket by its code typed in lower case with spaces, as staff type it from paper", async () => {
    now = TEST_NOW;
    const code = await ticketValidOn(2);
    const typed = ` ${code.toLowerCase()} `;
    const page = await h.call(ticketRoute, "GET", `/api/tickets/${encodeURIComponent(typed)}`, {
      cookie: cookies.staff,
      params: { code: typed },
    });
    expect(page.status).toBe(200);
    const view = (await page.json()) as { ticket: { code: string }; gate: { now: string; days: unknown[] } };
    expect(view.ticket.code).toBe(code);
    expect(view.gate.now).toBe(TEST_NOW.toISOString());
    // The event's days as the upstream gives them, windows included (the verdict reads them).
    expect(view.gate.days).toEqual(days.map(({ object: _, ...day }) => day));
    const res = await h.call(checkInRoute, "POST", "/api/tickets/x/check-in", {
      cookie: cookies.staff,
      params: { code: typed },
      body: { nfc: ` nfc-${code.toLowerCase()}\r\n`, idempotency_key: crypto.randomUUID() },
    });
    expect(res.status).toBe(200);
    expect(await upstreamStatus(code)).toBe("used");
  });
});
