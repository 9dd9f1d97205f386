import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../ids";
import { type ListBody, walkPages } from "../testing/read-model";
import { createTestApi, type TestApi } from "../testing/test-api";

/**
 * Cursor pagination against the store: ordered by id, `starting_after` = ids greater than it, stable
 * while records are written during a walk, exact under every filter, and indifferent to whether the
 * cursor's own record still exists or is in the key's scope.
 */

interface ListSpec {
  path: string;
  table: "tickets" | "sales" | "topups" | "scans" | "wristbands";
  /** Unique text columns: a copied row gets them suffixed with its new id. */
  unique: string[];
  /** Rows nothing references (foreign keys), so a test may delete them. */
  deletable: string;
}

const LISTS: ListSpec[] = [
  {
    path: "/v1/tickets",
    table: "tickets",
    unique: ["code"],
    deletable: "not exists (select 1 from wristbands w where w.ticket_id = r.id)",
  },
  { path: "/v1/transactions", table: "sales", unique: [], deletable: "true" },
  { path: "/v1/topups", table: "topups", unique: [], deletable: "true" },
  { path: "/v1/checkins", table: "scans", unique: [], deletable: "true" },
  {
    path: "/v1/wristbands",
    table: "wristbands",
    unique: ["nfc", "uhf"],
    deletable: `not exists (select 1 from sales s where s.wristband_id = r.id)
      and not exists (select 1 from topups t where t.wristband_id = r.id)`,
  },
];

const READ_SCOPES = ["event.read", "tickets.read", "checkins.read", "cashless.read", "reports.read"] as const;

let api: TestApi;
let key: string;
/** Restricted to the second day only. */
let dayKey: string;
let dayIds: string[];

beforeAll(async () => {
  api = await createTestApi();
  dayIds = api.services.catalog.rows.days.map((d) => d.id);
  key = (await api.createKey({ scopes: [...READ_SCOPES], rate_limits: { read: 100000 } })).key;
  dayKey = (
    await api.createKey({
      scopes: [...READ_SCOPES],
      restrictions: { ticket_type_ids: [], day_ids: [dayIds[1]] },
      rate_limits: { read: 100000 },
    })
  ).key;
});

afterAll(async () => {
  await api?.close();
});

async function sqlIds(table: string, where = "true", params: unknown[] = []): Promise<string[]> {
  const rows = await api.db.query<{ id: string }>(
    `select r.id from ${table} r where ${where} order by r.id`,
    params,
  );
  return rows.map((r) => r.id);
}

const columnCache = new Map<string, string[]>();
async function columnsOf(table: string): Promise<string[]> {
  let cols = columnCache.get(table);
  if (!cols) {
    cols = (
      await api.db.query<{ column_name: string }>(
        `select column_name from information_schema.columns
         where table_name = $1 and table_schema = current_schema() order by ordinal_position`,
        [table],
      )
    ).map((r) => r.column_name);
    columnCache.set(table, cols);
  }
  return cols;
}

/** Inserts a copy of a random row of `table` under a fresh id (greater than every existing one). */
async function copyRow(spec: ListSpec): Promise<string> {
  const cols = await columnsOf(spec.table);
  const id = newId();
  const exprs = cols.map((c) =>
    c === "id" ? "$1::text" : spec.unique.includes(c) ? `${c} || '-' || $1` : c,
  );
  await api.db.query(
    `insert into ${spec.table} (${cols.join(", ")})
     select ${exprs.join(", ")} from ${spec.table} where id = (select id from ${spec.table} order by random() limit 1)`,
    [id],
  );
  return id;
}

/** Deletes one random deletable row with an id greater than `after`; returns its id, if any. */
async function deleteAhead(spec: ListSpec, after: string): Promise<string | undefined> {
  const [row] = await api.db.query<{ id: string }>(
    `delete from ${spec.table} where id = (
       select r.id from ${spec.table} r where r.id > $1 and ${spec.deletable} order by random() limit 1
     ) returning id`,
    [after],
  );
  return row?.id;
}

/** A median value of a timestamp column, as a Date with millisecond precision. */
async function medianInstant(table: string, column: string, where = "true", params: unknown[] = []) {
  const [row] = await api.db.query<{ at: string }>(
    `select ${column} as at from ${table} r where ${where} order by ${column}
     offset (select count(*) / 2 from ${table} r where ${where}) limit 1`,
    params,
  );
  return new Date(row.at);
}

/** The same instant written with a +02:00 offset (what a client in Madrid might send). */
const withOffset = (d: Date) => DateTime.fromJSDate(d).setZone("UTC+2").toISO({ includeOffset: true })!;
const q = encodeURIComponent;

describe("a walk while records are written", () => {
  it.each(LISTS)("$path: ordered by id, no duplicate, no gap, every record of its start", async (spec) => {
    const before = await sqlIds(spec.table);
    const inserted: string[] = [];
    const deleted: string[] = [];
    const walk = await walkPages<{ id: string }>(api, spec.path, key, 37, {
      afterPage: async (page, cursor) => {
        inserted.push(await copyRow(spec), await copyRow(spec));
        if (page % 3 === 1) {
          const gone = await deleteAhead(spec, cursor);
          if (gone) deleted.push(gone);
        }
      },
    });
    const walked = walk.items.map((i) => i.id);
    const after = await sqlIds(spec.table);

    // Exactly the rows present when the walk ended, in id order (strictly ascending, so no duplicate).
    expect(walked).toEqual(after);
    expect(walk.pageSizes.length).toBeGreaterThan(3);
    expect(inserted.length).toBeGreaterThan(0);
    expect(deleted.length).toBeGreaterThan(0);
    const seen = new Set(walked);
    expect(seen.size).toBe(walked.length);
    for (const id of inserted)
      expect(seen.has(id), `inserted ${id} reached`).toBe(deleted.includes(id) === false);
    for (const id of deleted) expect(seen.has(id), `deleted ${id} not returned`).toBe(false);
    const missing = before.filter((id) => !seen.has(id) && !deleted.includes(id));
    expect(missing, "records of the walk's start that it skipped").toEqual([]);
  });
});

describe("filters combined with cursors", () => {
  interface Case {
    query: string;
    where: string;
    params: unknown[];
  }

  async function expectFilteredWalks(spec: ListSpec, cases: Case[], basePath = spec.path, limit = 23) {
    let nonEmpty = 0;
    for (const c of cases) {
      const expected = await sqlIds(spec.table, c.where, c.params);
      const walk = await walkPages<{ id: string }>(api, `${basePath}?${c.query}`, key, limit);
      expect(
        walk.items.map((i) => i.id),
        `${basePath}?${c.query}`,
      ).toEqual(expected);
      if (expected.length > limit) nonEmpty++;
    }
    // The filters must really cut through several pages, or this test proves little.
    expect(nonEmpty).toBeGreaterThan(0);
  }

  it("/v1/tickets: status and updated_since (date, date-time, offset), alone and together", async () => {
    const mid = await medianInstant("tickets", "updated_at");
    const date = mid.toISOString().slice(0, 10);
    const cases: Case[] = [
      ...["active", "used", "inactive"].map((s) => ({
        query: `status=${s}`,
        where: "r.status = $1",
        params: [s],
      })),
      { query: `updated_since=${q(mid.toISOString())}`, where: "r.updated_at >= $1", params: [mid] },
      { query: `updated_since=${q(withOffset(mid))}`, where: "r.updated_at >= $1", params: [mid] },
      {
        query: `updated_since=${date}`,
        where: "r.updated_at >= $1",
        params: [new Date(`${date}T00:00:00.000Z`)],
      },
      {
        query: `status=used&updated_since=${q(mid.toISOString())}`,
        where: "r.status = 'used' and r.updated_at >= $1",
        params: [mid],
      },
    ];
    await expectFilteredWalks(LISTS[0], cases);
  });

  it("/v1/wristbands: status and updated_since", async () => {
    const mid = await medianInstant("wristbands", "updated_at");
    const cases: Case[] = [
      ...["active", "blocked", "lost", "released", "pending_review"].map((s) => ({
        query: `status=${s}`,
        where: "r.status = $1",
        params: [s],
      })),
      { query: `updated_since=${q(withOffset(mid))}`, where: "r.updated_at >= $1", params: [mid] },
      {
        query: `updated_since=${q(mid.toISOString())}&status=active`,
        where: "r.updated_at >= $1 and r.status = 'active'",
        params: [mid],
      },
    ];
    await expectFilteredWalks(LISTS[4], cases);
  });

  it("/v1/transactions: day_id of every day, since, and both", async () => {
    const mid = await medianInstant("sales", "occurred_at");
    const cases: Case[] = [
      ...dayIds.map((d) => ({ query: `day_id=${d}`, where: "r.day_id = $1", params: [d] })),
      { query: `since=${q(mid.toISOString())}`, where: "r.occurred_at >= $1", params: [mid] },
      { query: `since=${q(withOffset(mid))}`, where: "r.occurred_at >= $1", params: [mid] },
      ...dayIds.map((d) => ({
        query: `since=${q(mid.toISOString())}&day_id=${d}`,
        where: "r.occurred_at >= $1 and r.day_id = $2",
        params: [mid, d],
      })),
    ];
    await expectFilteredWalks(LISTS[1], cases);
  });

  it("/v1/topups: day_id, since, direction, and combinations", async () => {
    const mid = await medianInstant("topups", "occurred_at");
    const cases: Case[] = [
      ...dayIds.map((d) => ({ query: `day_id=${d}`, where: "r.day_id = $1", params: [d] })),
      { query: `since=${q(mid.toISOString())}`, where: "r.occurred_at >= $1", params: [mid] },
      ...["topup", "withdraw"].map((dir) => ({
        query: `direction=${dir}`,
        where: "r.direction = $1",
        params: [dir],
      })),
      ...dayIds.map((d) => ({
        query: `direction=topup&day_id=${d}&since=${q(withOffset(mid))}`,
        where: "r.direction = 'topup' and r.day_id = $1 and r.occurred_at >= $2",
        params: [d, mid],
      })),
    ];
    await expectFilteredWalks(LISTS[2], cases, "/v1/topups", 11);
  });

  it("/v1/checkins: day_id, since, zone_id, and combinations", async () => {
    const mid = await medianInstant("scans", "occurred_at");
    const zones = api.services.catalog.rows.zones.map((z) => z.id);
    const cases: Case[] = [
      ...dayIds.map((d) => ({ query: `day_id=${d}`, where: "r.day_id = $1", params: [d] })),
      { query: `since=${q(mid.toISOString())}`, where: "r.occurred_at >= $1", params: [mid] },
      ...zones.map((z) => ({ query: `zone_id=${z}`, where: "r.zone_id = $1", params: [z] })),
      ...zones.map((z) => ({
        query: `zone_id=${z}&day_id=${dayIds[1]}&since=${q(mid.toISOString())}`,
        where: "r.zone_id = $1 and r.day_id = $2 and r.occurred_at >= $3",
        params: [z, dayIds[1], mid],
      })),
    ];
    await expectFilteredWalks(LISTS[3], cases);
  });

  it("/v1/wristbands/{code}/transactions: by NFC and by UHF, with day_id and since", async () => {
    const [busy] = await api.db.query<{ id: string; nfc: string; uhf: string }>(
      `select w.id, w.nfc, w.uhf from wristbands w where w.uhf is not null
       order by (select count(*) from sales s where s.wristband_id = w.id) desc, w.id limit 1`,
    );
    const mid = await medianInstant("sales", "occurred_at", "r.wristband_id = $1", [busy.id]);
    const cases: Case[] = [
      { query: "", where: "r.wristband_id = $1", params: [busy.id] },
      ...dayIds.map((d) => ({
        query: `day_id=${d}`,
        where: "r.wristband_id = $1 and r.day_id = $2",
        params: [busy.id, d],
      })),
      {
        query: `since=${q(mid.toISOString())}`,
        where: "r.wristband_id = $1 and r.occurred_at >= $2",
        params: [busy.id, mid],
      },
    ];
    for (const code of [busy.nfc, busy.uhf]) {
      await expectFilteredWalks(LISTS[1], cases, `/v1/wristbands/${q(code)}/transactions`, 3);
    }
  });
});

describe("cursors", () => {
  it.each(LISTS)("$path: a cursor whose record was deleted still pages from its position", async (spec) => {
    const all = await sqlIds(spec.table);
    // Deletable rows with more than a page after them.
    const candidates = (await sqlIds(spec.table, spec.deletable)).filter(
      (id) => all.indexOf(id) < all.length - 40,
    );
    // No wristband of the seed is free of sales and top-ups: delete those records first.
    const victim = candidates.length ? candidates[Math.floor(candidates.length / 2)] : all[all.length >> 1];
    if (spec.table === "wristbands") {
      await api.db.query("delete from sales where wristband_id = $1", [victim]);
      await api.db.query("delete from topups where wristband_id = $1", [victim]);
    }
    const [row] = await api.db.query<{ id: string }>(`delete from ${spec.table} where id = $1 returning id`, [
      victim,
    ]);
    expect(row.id).toBe(victim);
    const rest = await sqlIds(spec.table, "r.id > $1", [victim]);
    expect(rest.length).toBeGreaterThan(37);

    const res = await api.get<ListBody<{ id: string }>>(
      `${spec.path}?limit=37&starting_after=${victim}`,
      key,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((i) => i.id)).toEqual(rest.slice(0, 37));
    expect(res.body.has_more).toBe(true);

    const walk = await walkPages<{ id: string }>(api, spec.path, key, 37, { startingAfter: victim });
    expect(walk.items.map((i) => i.id)).toEqual(rest);
  });

  it.each(LISTS)(
    "$path: ids that exist nowhere, upper-case cursors, first and past-the-end",
    async (spec) => {
      const all = await sqlIds(spec.table);
      const mid = all[Math.floor(all.length / 2)];
      // An id after `mid` (same prefix, a later counter) that was never issued.
      const existing = new Set(all);
      let between = mid;
      for (let k = 1; existing.has(between); k++) {
        between = `${mid.slice(0, 18)}${((Number.parseInt(mid.slice(18), 16) + k) % 0x1000000).toString(16).padStart(6, "0")}`;
      }
      const expectAfter = async (cursor: string, expected: string[]) => {
        const res = await api.get<ListBody<{ id: string }>>(
          `${spec.path}?limit=50&starting_after=${cursor}`,
          key,
        );
        expect(res.status, res.text).toBe(200);
        expect(res.body.data.map((i) => i.id)).toEqual(expected.slice(0, 50));
        expect(res.body.has_more).toBe(expected.length > 50);
        expect(res.body.next_cursor).toBe(expected.length > 50 ? expected[49] : null);
      };
      await expectAfter(
        between,
        all.filter((id) => id > between),
      );
      await expectAfter(
        mid.toUpperCase(),
        all.filter((id) => id > mid),
      );
      await expectAfter("000000000000000000000000", all);
      await expectAfter("ffffffffffffffffffffffff", []);
    },
  );

  it("a cursor at a record out of the key's scope works like any other id", async () => {
    const days = [dayIds[1]];
    // Independent statement of the scope rules for a key restricted to one day.
    const scope: Record<ListSpec["table"], string> = {
      tickets: "r.valid_day_ids && $1::text[]",
      wristbands: `(r.ticket_id is not null and exists (select 1 from tickets t where t.id = r.ticket_id
        and t.valid_day_ids && $1::text[])) or (r.ticket_id is null and r.valid_day_ids && $1::text[])`,
      sales: "r.day_id = any($1::text[])",
      topups: "r.day_id = any($1::text[])",
      scans: "r.day_id = any($1::text[])",
    };
    for (const spec of LISTS) {
      const outside = await sqlIds(spec.table, `not (${scope[spec.table]})`, [days]);
      expect(outside.length, `${spec.table} has out-of-scope rows`).toBeGreaterThan(0);
      for (const cursor of [
        outside[0],
        outside[Math.floor(outside.length / 2)],
        outside[outside.length - 1],
      ]) {
        const expected = await sqlIds(spec.table, `(${scope[spec.table]}) and r.id > $2`, [days, cursor]);
        const walk = await walkPages<{ id: string }>(api, spec.path, dayKey, 29, { startingAfter: cursor });
        expect(
          walk.items.map((i) => i.id),
          `${spec.path} after out-of-scope ${cursor}`,
        ).toEqual(expected);
      }
    }
  });
});

describe("page sizes", () => {
  it("default 50, maximum 200, and has_more exact at the boundary", async () => {
    const all = await sqlIds("sales");
    const first = await api.get<ListBody<{ id: string }>>("/v1/transactions", key);
    expect(first.body.data.map((i) => i.id)).toEqual(all.slice(0, 50));
    expect(first.body.has_more).toBe(true);
    const big = await api.get<ListBody<{ id: string }>>("/v1/transactions?limit=200", key);
    expect(big.body.data.map((i) => i.id)).toEqual(all.slice(0, 200));

    const withdrawals = await sqlIds("topups", "r.direction = 'withdraw'");
    const n = withdrawals.length;
    expect(n).toBeGreaterThan(2);
    const exact = await api.get<ListBody<{ id: string }>>(`/v1/topups?direction=withdraw&limit=${n}`, key);
    expect(exact.body.data.map((i) => i.id)).toEqual(withdrawals);
    expect(exact.body.has_more).toBe(false);
    expect(exact.body.next_cursor).toBeNull();

    const short = await walkPages<{ id: string }>(api, "/v1/topups?direction=withdraw", key, n - 1);
    expect(short.pageSizes).toEqual([n - 1, 1]);
    expect(short.items.map((i) => i.id)).toEqual(withdrawals);

    const ones = await walkPages<{ id: string }>(api, "/v1/topups?direction=withdraw", key, 1);
    expect(ones.pageSizes).toEqual(withdrawals.map(() => 1));
    expect(ones.items.map((i) => i.id)).toEqual(withdrawals);
  });
});
