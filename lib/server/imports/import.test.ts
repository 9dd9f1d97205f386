import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "@/integration-api/testing/test-api";
import type { NewTicket } from "@/lib/contract";
import { systemClock } from "@/lib/contract/clock";
import type { Db } from "@/lib/db/db";
import { type FetchLike, UpstreamClient } from "@/lib/server/upstream/client";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { auditedWrite } from "../http/audited-write";
import { listAudit, recordAudit } from "../store/audit-log";
import { chunk, createImportJob, getImportJob, sendNextChunk } from "./import";

/** Import chunking and resume against the real Integration API, in-process. */

let api: TestApi;
let db: Db;
let key: string;
let ticketTypeId: string;
let dayId: string;
const manager = { username: "manager", role: "manager" as const };

beforeAll(async () => {
  api = await createTestApi({ scale: 0.02 });
  key = (
    await api.createKey({
      name: "dashboard staff",
      scopes: ["*"],
      activate: true,
      rate_limits: { read: 100_000, write: 100_000 },
    } as Parameters<TestApi["createKey"]>[0])
  ).key;
  db = await openTestDashboardStore();
  ticketTypeId = (await api.get<{ data: { id: string }[] }>("/v1/ticket-types", key)).body.data[0]!.id;
  dayId = (await api.get<{ data: { id: string }[] }>("/v1/days", key)).body.data[0]!.id;
});

afterAll(async () => {
  await db?.close();
  await api?.close();
});

function client(fetch: FetchLike, maxAttempts = 4) {
  return new UpstreamClient({
    baseUrl: "http://integration-api.test/v1",
    apiKey: key,
    fetch,
    maxAttempts,
    sleep: async () => {},
    now: systemClock,
  });
}
const direct: FetchLike = async (url, init) => api.app.request(url, init);

function tickets(prefix: string, n: number): NewTicket[] {
  return Array.from({ length: n }, (_, i) => ({
    code: `${prefix}-${String(i).padStart(5, "0")}`,
    ticket_type_id: ticketTypeId,
    attendee: { name: `Guest ${i}`, email: `guest${i}@${prefix.toLowerCase()}.example.com` },
    valid_days: [dayId],
  }));
}

async function upstreamCodes(prefix: string): Promise<string[]> {
  const all = await api.walk<{ id: string; code: string }>("/v1/tickets", key);
  return all.map((t) => t.code).filter((c) => c.startsWith(`${prefix}-`));
}

describe("chunk", () => {
  it("splits into chunks of at most 500", () => {
    expect(chunk(Array.from({ length: 1200 }, (_, i) => i)).map((c) => c.length)).toEqual([500, 500, 200]);
    expect(chunk([])).toEqual([]);
  });
});

describe("ticket import", () => {
  it("sends 1,200 rows in three chunks, one stored Idempotency-Key each, and audits them", async () => {
    const id = await createImportJob(db, {
      username: "manager",
      fileName: "a.csv",
      tickets: tickets("IMPA", 1200),
    });
    const before = await getImportJob(db, id);
    expect(before!.chunks.map((c) => [c.row_count, c.status])).toEqual([
      [500, "pending"],
      [500, "pending"],
      [200, "pending"],
    ]);
    expect(new Set(before!.chunks.map((c) => c.idempotency_key)).size).toBe(3);
    const c = client(direct);
    for (let i = 0; i < 3; i++) await sendNextChunk(db, c, id, manager);
    const after = (await sendNextChunk(db, c, id, manager))!;
    expect(after.status).toBe("completed");
    expect(after.created_tickets).toBe(1200);
    expect(after.sent_rows).toBe(1200);
    expect((await upstreamCodes("IMPA")).length).toBe(1200);
    const audit = (await listAudit(db)).data.filter((e) => e.target?.startsWith(id));
    expect(audit).toHaveLength(3);
    for (const entry of audit) {
      expect(entry.outcome).toBe("ok");
      expect(entry.upstream_request_id).toBeTruthy();
      expect(before!.chunks.map((ch) => ch.idempotency_key)).toContain(entry.idempotency_key);
    }
  });

  it("resumes after an answer lost mid-way with the same key: no ticket twice", async () => {
    const id = await createImportJob(db, {
      username: "manager",
      fileName: "b.csv",
      tickets: tickets("IMPB", 1200),
    });
    let posts = 0;
    // The second POST reaches the API (the tickets are created), then the answer is lost.
    const flaky: FetchLike = async (url, init) => {
      if (init.method === "POST" && ++posts === 2) {
        await api.app.request(url, init);
        throw new TypeError("socket hang up");
      }
      return api.app.request(url, init);
    };
    const c = client(flaky, 1);
    await sendNextChunk(db, c, id, manager);
    const failed = (await sendNextChunk(db, c, id, manager))!;
    expect(failed.status).toBe("failed");
    expect(failed.chunks[1]!.status).toBe("failed");
    expect(failed.chunks[1]!.last_error!.code).toBe("network_error");
    expect(failed.sent_rows).toBe(500);
    const keyOfChunk2 = failed.chunks[1]!.idempotency_key;

    // Resume (another process, a healthy network): the same key replays the first answer.
    const healthy = client(direct);
    const resumed = (await sendNextChunk(db, healthy, id, manager))!;
    expect(resumed.chunks[1]!.status).toBe("sent");
    expect(resumed.chunks[1]!.idempotency_key).toBe(keyOfChunk2);
    expect(resumed.chunks[1]!.attempts).toBe(2);
    const done = (await sendNextChunk(db, healthy, id, manager))!;
    expect(done.status).toBe("completed");
    expect(done.created_tickets).toBe(1200);
    const codes = await upstreamCodes("IMPB");
    expect(codes.length).toBe(1200);
    expect(new Set(codes).size).toBe(1200);
    const replay = (await listAudit(db)).data.find((e) => e.target === `${id}#1` && e.outcome === "ok");
    expect(replay?.detail).toMatchObject({ replayed: true });
  });

  it("keeps a refused chunk failed with the upstream's code and request id", async () => {
    const id = await createImportJob(db, {
      username: "manager",
      fileName: "c.csv",
      tickets: tickets("IMPA", 3),
    });
    const job = (await sendNextChunk(db, client(direct), id, manager))!;
    expect(job.status).toBe("failed");
    expect(job.chunks[0]!.last_error).toMatchObject({ status: 409, code: "ticket_code_taken" });
    expect(job.chunks[0]!.last_error!.request_id).toMatch(/\S/);
  });
});

describe("audit log", () => {
  it("records successes and refusals with key, request id and outcome, newest first", async () => {
    await recordAudit(db, { user: manager, action: "test.note", outcome: "ok", detail: { n: 1 } });
    const c = client(direct);
    const key1 = crypto.randomUUID();
    await expect(
      auditedWrite(
        db,
        { user: manager, action: "tickets.cancel", target: "NOPE-123", idempotencyKey: key1 },
        (opts) => c.cancelTicket("NOPE-123", opts),
      ),
    ).rejects.toMatchObject({
      status: 404,
      code: "ticket_not_found",
      message: "There is no ticket with this code.",
    });
    const [latest, previous] = (await listAudit(db, { limit: 2 })).data;
    expect(latest).toMatchObject({
      username: "manager",
      role: "manager",
      action: "tickets.cancel",
      target: "NOPE-123",
      idempotency_key: key1,
      outcome: "ticket_not_found",
    });
    expect(latest!.upstream_request_id).toMatch(/\S/);
    expect(previous).toMatchObject({ action: "test.note", outcome: "ok", detail: { n: 1 } });
    const page2 = await listAudit(db, { limit: 1, before: latest!.id });
    expect(page2.data[0]!.id).toBe(previous!.id);
  });
});
