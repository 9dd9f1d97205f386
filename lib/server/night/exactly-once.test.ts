import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import { SignoffRequest } from "@/lib/shared/api/night";
import { insertEventDays, saleRecord, topupRecord } from "@/lib/testing/mirror-records";
import { signoffRequest, TEST_TOLERANCE } from "@/lib/testing/signoff-request";
import { openTestDashboardStore } from "../../testing/dashboard-store";
import { acknowledge } from "../alerts/views";
import { pushBus } from "../push";
import { insertAlert } from "../store/attention";
import { mirrorDayTotals, upsertSales, upsertTopups } from "../store/mirror";
import { saveDayCheck } from "../store/sync-state";
import { waiveTerminal } from "./completeness";
import { saveDraft, setFloat } from "./counting";
import { nightReport } from "./night";
import { approveSignoff, signOffNight } from "./signoff";

/**
 * Exactly once, by the store's constraints (migration 017): a double click, two supervisors or two
 * managers at the same moment leave one row, and the request that lost is told which row stands.
 * Truly parallel on PostgreSQL (DATABASE_URL: a pool of connections); on PGlite the same requests
 * interleave in one process.
 */

const H = 3_600_000;
const DAYS = ["day_1", "day_2", "day_3", "day_4"].map((id, i) => ({
  id,
  starts_at: new Date(Date.parse("2026-07-10T10:00:00Z") + i * 24 * H).toISOString(),
  ends_at: new Date(Date.parse("2026-07-11T04:00:00Z") + i * 24 * H).toISOString(),
}));
const AFTER = new Date("2026-07-13T09:00:00Z"); // day_1..day_3 ended, day_4 not started
const DURING_4 = new Date("2026-07-13T20:00:00Z");
const AFTER_4 = new Date("2026-07-14T09:00:00Z");
const person = (n: number, role = "supervisor") => ({ id: `u_${role}_${n}`, username: `${role}${n}`, role });
const SUP = person(1);
const MANAGERS = [1, 2, 3, 4, 5, 6].map((n) => person(n, "manager"));
const opts = { tolerance: TEST_TOLERANCE, now: AFTER };

let db: Db;
const rows = async (sql: string, params: unknown[] = []) =>
  Number((await db.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params))[0]!.n);

/** The night matches its upstream summary (as the sync worker's checksum finds it). */
async function checked(dayId: string, matched = true) {
  const totals = await mirrorDayTotals(db, dayId);
  const upstream = matched
    ? totals
    : { ...totals, sales: { ...totals.sales, count: totals.sales.count + 1 } };
  await saveDayCheck(db, {
    dayId,
    at: AFTER,
    matched,
    upstream: { ...upstream, generated_at: AFTER.toISOString() },
    mirror: totals,
    rewalked: false,
  });
}

beforeAll(async () => {
  db = await openTestDashboardStore();
  await insertEventDays(db, DAYS);
  for (const d of DAYS.slice(0, 3)) {
    const at = (h: number) => new Date(Date.parse(d.starts_at) + h * H);
    await upsertTopups(db, [
      topupRecord({ device: "desk-1", day: d.id, occurred: at(2), amount: 5000 }),
      topupRecord({ device: "desk-1", day: d.id, occurred: at(3), amount: 2500 }),
      topupRecord({ device: "refund-1", day: d.id, occurred: at(4), amount: 700, direction: "withdraw" }),
    ]);
    // bar-1 sells all night; bar-3 fell silent at 23:00 (the night waits for it until waived).
    await upsertSales(db, [
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17].map((h) =>
        saleRecord({ device: "bar-1", day: d.id, occurred: at(h), total: 1000 }),
      ),
      saleRecord({ device: "bar-3", day: d.id, occurred: at(1), total: 800 }),
    ]);
    await checked(d.id);
  }
  await setFloat(db, SUP, { day_id: "day_1", device_id: "desk-1", amount: 10_000 }, AFTER);
});
afterAll(async () => {
  await db?.close();
});

describe("sign-offs exactly once", () => {
  it("a double click: ten requests with one idempotency key leave one row, and each answers it", async () => {
    const request = signoffRequest({
      day_id: "day_1",
      comment: "double click",
      counted: [{ device_id: "desk-1", payment_method: "cash", counted: 17_500 }],
    });
    const pushed: string[] = [];
    const unsubscribe = pushBus(db).subscribe((s) => s !== "reset" && pushed.push(...s.topics));
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => signOffNight(db, SUP, request, opts)),
    );
    unsubscribe();
    expect(outcomes.filter((o) => o.created)).toHaveLength(1);
    expect(pushed).toEqual(["night"]); // the browsers are told once, of the one sign-off
    expect(new Set(outcomes.map((o) => o.signoff.id)).size).toBe(1);
    expect(await rows("recon_signoffs where day_id = 'day_1'")).toBe(1);
    expect(await rows("audit_log where action = 'reconciliation.signoff'")).toBe(1);
    // Expected cash = float 100.00 + top-ups 75.00: counted exactly, final at once.
    expect(outcomes[0]!.signoff).toMatchObject({
      status: "final",
      needs_approval: false,
      counted: [{ device_id: "desk-1", payment_method: "cash", expected: 17_500, variance: 0 }],
    });
    expect(outcomes[0]!.signoff.snapshot.floats).toMatchObject([{ device_id: "desk-1", amount: 10_000 }]);
  });

  it("the same key from another person, or for another night, is refused (422)", async () => {
    const [first] = await db.query<{ key: string }>(
      "select idempotency_key::text as key from recon_signoffs",
    );
    await expect(
      signOffNight(db, person(2), signoffRequest({ day_id: "day_1", idempotency_key: first!.key }), opts),
    ).rejects.toMatchObject({ code: "idempotency_key_reused", status: 422 });
  });

  it("two supervisors at once from the same sign-off: one new row; the others are told who signed", async () => {
    const [first] = (await nightReport(db, { dayId: "day_1", tolerance: TEST_TOLERANCE, now: AFTER }))
      .signoffs;
    const supervisors = [2, 3, 4, 5, 6, 7, 8, 9].map((n) => person(n));
    const settled = await Promise.allSettled(
      supervisors.map((s) =>
        signOffNight(
          db,
          s,
          signoffRequest({ day_id: "day_1", based_on: first!.id, comment: s.username }),
          opts,
        ),
      ),
    );
    const won = settled.filter((s) => s.status === "fulfilled");
    expect(won).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof signOffNight>>>).value.signoff;
    expect(winner.supersedes).toBe(first!.id);
    for (const lost of settled.filter((s) => s.status === "rejected"))
      expect((lost as PromiseRejectedResult).reason).toMatchObject({
        code: "already_signed",
        status: 409,
        message: expect.stringContaining(`${winner.username} signed this night off`),
      });
    expect(await rows("recon_signoffs where day_id = 'day_1'")).toBe(2);
    // A form still showing the first sign-off cannot sign from it again, nor as the night's first.
    await expect(
      signOffNight(db, SUP, signoffRequest({ day_id: "day_1", based_on: first!.id }), opts),
    ).rejects.toMatchObject({ code: "already_signed" });
    await expect(signOffNight(db, SUP, signoffRequest({ day_id: "day_1" }), opts)).rejects.toMatchObject({
      code: "already_signed",
    });
    // A basis of another night is a bad request.
    await expect(
      signOffNight(db, SUP, signoffRequest({ day_id: "day_2", based_on: first!.id }), opts),
    ).rejects.toMatchObject({ code: "invalid_parameter", param: "based_on" });
  });
});

describe("tolerance and approval", () => {
  let awaiting = "";

  it("a variance beyond the tolerance needs a comment, then awaits a manager", async () => {
    // desk-1 expects 75.00 on day_2 (no float): 69.00 counted is 6.00 short, beyond 5.00 a line.
    const short = { device_id: "desk-1", payment_method: "cash", counted: 6900 };
    await expect(
      signOffNight(db, SUP, signoffRequest({ day_id: "day_2", counted: [short] }), opts),
    ).rejects.toMatchObject({ code: "comment_required", status: 400, param: "comment" });
    const { signoff } = await signOffNight(
      db,
      SUP,
      signoffRequest({ day_id: "day_2", counted: [short], comment: "a 5 note missing", blind: true }),
      opts,
    );
    expect(signoff).toMatchObject({ status: "awaiting_approval", needs_approval: true, approval: null });
    expect(signoff.snapshot).toMatchObject({ tolerance: TEST_TOLERANCE, blind: true });
    awaiting = signoff.id;
  });

  it("the signer cannot approve their own sign-off", async () => {
    await expect(approveSignoff(db, SUP, awaiting, "", AFTER)).rejects.toMatchObject({
      code: "approver_is_signer",
      status: 403,
    });
  });

  it("two managers at once: one approval stands, the other is told whose; the sign-off is final", async () => {
    const pushed: string[] = [];
    const unsubscribe = pushBus(db).subscribe((s) => s !== "reset" && pushed.push(...s.topics));
    const settled = await Promise.allSettled(
      MANAGERS.map((m) => approveSignoff(db, m, awaiting, `ok by ${m.username}`, AFTER)),
    );
    unsubscribe();
    expect(pushed).toEqual(["night"]);
    const won = settled.filter((s) => s.status === "fulfilled") as PromiseFulfilledResult<
      Awaited<ReturnType<typeof approveSignoff>>
    >[];
    expect(won).toHaveLength(1);
    const approval = won[0]!.value.approval!;
    expect(won[0]!.value.status).toBe("final");
    for (const lost of settled.filter((s) => s.status === "rejected"))
      expect((lost as PromiseRejectedResult).reason).toMatchObject({
        code: "already_approved",
        status: 409,
        message: expect.stringContaining(`${approval.username} approved this sign-off`),
      });
    expect(await rows("recon_approvals where signoff_id = $1::bigint", [awaiting])).toBe(1);
    const report = await nightReport(db, { dayId: "day_2", tolerance: TEST_TOLERANCE, now: AFTER });
    expect(report.signoffs[0]).toMatchObject({
      username: SUP.username,
      status: "final",
      approval: { username: approval.username, comment: approval.comment, approved_at: AFTER.toISOString() },
    });
  });

  it("a sign-off within the tolerance needs no approval; a superseded one cannot be approved", async () => {
    const within = await signOffNight(
      db,
      SUP,
      signoffRequest({
        day_id: "day_3",
        counted: [{ device_id: "desk-1", payment_method: "cash", counted: 7000 }], // 5.00 short: within
      }),
      opts,
    );
    expect(within.signoff.status).toBe("final");
    await expect(approveSignoff(db, MANAGERS[0]!, within.signoff.id, "", AFTER)).rejects.toMatchObject({
      code: "approval_not_needed",
    });
    const beyond = await signOffNight(
      db,
      person(2),
      signoffRequest({
        day_id: "day_3",
        based_on: within.signoff.id,
        counted: [{ device_id: "desk-1", payment_method: "cash", counted: 4000 }],
        comment: "recount pending",
      }),
      opts,
    );
    expect(beyond.signoff.status).toBe("awaiting_approval");
    await signOffNight(
      db,
      SUP,
      signoffRequest({ day_id: "day_3", based_on: beyond.signoff.id, comment: "recounted" }),
      opts,
    );
    await expect(approveSignoff(db, MANAGERS[0]!, beyond.signoff.id, "", AFTER)).rejects.toMatchObject({
      code: "signoff_superseded",
    });
  });
});

describe("the night must be over and checked; counted lines are checked", () => {
  const req = (over: Partial<Parameters<typeof signoffRequest>[0]> = {}) =>
    signoffRequest({ day_id: "day_4", ...over });
  const opts4 = { tolerance: TEST_TOLERANCE, now: AFTER_4 };

  it("a running night is counted as a draft; its sign-off is refused (409 night_not_ended)", async () => {
    await upsertTopups(db, [
      topupRecord({ device: "desk-1", day: "day_4", occurred: DURING_4, amount: 3000 }),
    ]);
    await expect(signOffNight(db, SUP, req(), { ...opts, now: DURING_4 })).rejects.toMatchObject({
      code: "night_not_ended",
      status: 409,
    });
    const draft = await saveDraft(
      db,
      SUP,
      {
        day_id: "day_4",
        lines: [{ device_id: "desk-1", payment_method: "cash", denominations: { "2000": 1, "500": 2 } }],
      },
      DURING_4,
    );
    expect(draft).toMatchObject([
      { device_id: "desk-1", counted: 3000, denominations: { "2000": 1, "500": 2 } },
    ]);
    const cleared = await saveDraft(
      db,
      SUP,
      { day_id: "day_4", lines: [{ device_id: "desk-1", payment_method: "cash", counted: null }] },
      DURING_4,
    );
    expect(cleared).toEqual([]);
  });

  it("an unchecked or differing night is signed only against the difference, explicitly", async () => {
    await expect(signOffNight(db, SUP, req(), opts4)).rejects.toMatchObject({ code: "night_not_checked" });
    await checked("day_4", false);
    await expect(signOffNight(db, SUP, req(), opts4)).rejects.toMatchObject({ code: "night_differs" });
  });

  it("refuses a desk the night does not have, a line counted twice and a coin the currency does not have", async () => {
    const cash = (device_id: string, over: object = { counted: 100 }) => ({
      device_id,
      payment_method: "cash",
      ...over,
    });
    const against = { sign_against_difference: true };
    await expect(
      signOffNight(db, SUP, req({ ...against, counted: [cash("desk-9")] }), opts4),
    ).rejects.toMatchObject({ code: "unknown_count_line", status: 400, param: "counted.0" });
    await expect(
      signOffNight(db, SUP, req({ ...against, counted: [cash("desk-1"), cash("desk-1")] }), opts4),
    ).rejects.toMatchObject({ code: "duplicate_count_line", status: 400, param: "counted.1" });
    await expect(
      signOffNight(
        db,
        SUP,
        req({ ...against, counted: [cash("desk-1", { denominations: { "300": 1 } })] }),
        opts4,
      ),
    ).rejects.toMatchObject({ code: "unknown_denomination", param: "counted.0.denominations.300" });
    expect(await rows("recon_signoffs where day_id = 'day_4'")).toBe(0);
    // Bounds and shapes are the request schema's (400 invalid_parameter, param naming the line).
    const parse = (counted: unknown[]) =>
      SignoffRequest.safeParse({ day_id: "day_4", idempotency_key: crypto.randomUUID(), counted });
    expect(parse([cash("desk-1", { counted: -1e11 })]).error?.issues[0]?.path).toEqual([
      "counted",
      0,
      "counted",
    ]);
    expect(parse([cash("desk-1", { counted: -100 })]).error?.issues[0]?.message).toMatch(
      /cannot be negative/,
    );
    expect(parse([cash("desk-1", { counted: 1, denominations: { "100": 1 } })]).success).toBe(false);
    expect(
      parse([{ device_id: "desk-1", payment_method: "card", denominations: { "100": 1 } }]).success,
    ).toBe(false);
    expect(parse([{ device_id: "desk-1", payment_method: "promo", counted: 1 }]).success).toBe(false);
    // Signed against the difference: recorded, with the notes and coins that make the count.
    const { signoff } = await signOffNight(
      db,
      SUP,
      req({ ...against, counted: [cash("desk-1", { denominations: { "2000": 1, "500": 2 } })] }),
      opts4,
    );
    expect(signoff.snapshot.signed_against_difference).toBe(true);
    expect(signoff.counted).toEqual([
      {
        device_id: "desk-1",
        payment_method: "cash",
        counted: 3000,
        expected: 3000,
        variance: 0,
        denominations: { "2000": 1, "500": 2 },
      },
    ]);
  });
});

describe("waivers and acknowledgements exactly once", () => {
  it("eight waivers of one terminal at once: one stands, the others name it", async () => {
    // bar-3 last reached the server at 11:00 of day_3, long before its last activity: pending.
    const settled = await Promise.allSettled(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) =>
        waiveTerminal(db, person(n), { day_id: "day_3", device_id: "bar-3", reason: `reason ${n}` }, AFTER),
      ),
    );
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    const [waiver] = await db.query<{ username: string }>(
      "select username from recon_waivers where day_id = 'day_3' and device_id = 'bar-3'",
    );
    for (const lost of settled.filter((s) => s.status === "rejected"))
      expect((lost as PromiseRejectedResult).reason).toMatchObject({
        code: "already_waived",
        message: expect.stringContaining(`${waiver!.username} waived bar-3`),
      });
    expect(await rows("recon_waivers where day_id = 'day_3' and device_id = 'bar-3'")).toBe(1);
  });

  it("eight acknowledgements of one alert at once: the first stands, the others are refused naming it", async () => {
    await insertAlert(
      db,
      {
        kind: "terminal_quiet",
        subject: "bar-3",
        severity: "warning",
        figures: {},
        link: "/terminals/bar-3",
      },
      AFTER,
    );
    const [alert] = await db.query<{ id: string }>(
      "select id::text as id from alerts where subject = 'bar-3'",
    );
    const settled = await Promise.allSettled(
      MANAGERS.map((m) =>
        acknowledge(db, { ...m, role: "manager" }, alert!.id, `on it: ${m.username}`, AFTER),
      ),
    );
    const won = settled.filter((s) => s.status === "fulfilled") as PromiseFulfilledResult<
      Awaited<ReturnType<typeof acknowledge>>
    >[];
    expect(won).toHaveLength(1);
    const first = won[0]!.value;
    for (const lost of settled.filter((s) => s.status === "rejected"))
      expect((lost as PromiseRejectedResult).reason).toMatchObject({
        code: "already_acknowledged",
        status: 409,
        message: expect.stringContaining(`${first.acknowledged_by} acknowledged this alert`),
      });
    expect(await rows("alert_acknowledgements where alert_id = $1::bigint", [alert!.id])).toBe(1);
    const [stored] = await db.query<{ by: string; comment: string }>(
      "select acknowledged_by as by, ack_comment as comment from alerts where id = $1::bigint",
      [alert!.id],
    );
    expect(stored).toEqual({ by: first.acknowledged_by, comment: `on it: ${first.acknowledged_by}` });
  });
});

describe("the constraints exist", () => {
  it("unique indexes and primary keys keep one row whatever the code does", async () => {
    const unique = await db.query<{ name: string }>(
      // This test's own schema only: on PostgreSQL other files drop theirs meanwhile, and reading
      // a dropped index's definition fails ("could not open relation with OID").
      `select indexname as name from pg_indexes where schemaname = current_schema()
       and indexdef ilike 'create unique index%' and tablename in ('recon_signoffs', 'recon_approvals', 'recon_waivers', 'alert_acknowledgements')
       order by 1`,
    );
    expect(unique.map((u) => u.name)).toEqual(
      expect.arrayContaining([
        "alert_acknowledgements_pkey",
        "recon_approvals_pkey",
        "recon_signoffs_first",
        "recon_signoffs_idempotency",
        "recon_signoffs_successor",
        "recon_waivers_once",
      ]),
    );
    // Written around the code: the store itself refuses a second first sign-off, approval, waiver.
    const [s] = await db.query<{ id: string }>(
      "select min(id)::text as id from recon_signoffs where day_id = 'day_1'",
    );
    const twice = [
      `insert into recon_signoffs (day_id, user_id, username, counted, snapshot) values ('day_1', 'u', 'u', '[]', '{}')`,
      `insert into recon_signoffs (day_id, user_id, username, counted, snapshot, supersedes) values ('day_1', 'u', 'u', '[]', '{}', ${s!.id})`,
      `insert into recon_waivers (day_id, device_id, waived_at, user_id, username, reason) values ('day_3', 'bar-3', now(), 'u', 'u', 'r')`,
    ];
    for (const sql of twice) await expect(db.query(sql)).rejects.toThrow(/duplicate key|unique/);
    // Approvals and floats are history too.
    await expect(db.query("update recon_approvals set comment = 'x'")).rejects.toThrow(/immutable/);
    await expect(db.query("delete from recon_floats")).rejects.toThrow(/immutable/);
  });
});
