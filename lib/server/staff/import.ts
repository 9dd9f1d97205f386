import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { MAX_TICKETS_PER_BATCH, type NewTicket } from "@/lib/contract/requests";
import type { Db } from "@/lib/db/db";
import type { SessionUser } from "@/lib/server/guard";
import type { UpstreamClient } from "@/lib/server/upstream";
import { recordAudit } from "./audit";
import { isApiError, plainWords } from "./errors";

export type ImportStatus = "pending" | "running" | "failed" | "completed";

export interface ImportJob {
  id: string;
  created_at: string;
  updated_at: string;
  username: string;
  file_name: string;
  total_rows: number;
  status: ImportStatus;
  chunks: {
    seq: number;
    first_row: number;
    row_count: number;
    status: "pending" | "sent" | "failed";
    attempts: number;
    created_count: number | null;
    idempotency_key: string;
    upstream_request_id: string | null;
    last_error: { status: number; code: string; message: string; request_id: string | null } | null;
  }[];
  sent_rows: number;
  created_tickets: number;
}

/** Splits validated tickets into chunks of at most `size`. */
export function chunk<T>(items: T[], size = MAX_TICKETS_PER_BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Stores the job and its chunks, each with its own Idempotency-Key, before anything is sent. */
export async function createImportJob(
  db: Db,
  input: { username: string; fileName: string; tickets: NewTicket[]; chunkSize?: number },
): Promise<string> {
  const id = `imp_${randomBytes(8).toString("hex")}`;
  const chunks = chunk(input.tickets, input.chunkSize);
  await db.transaction(async (tx) => {
    await tx.query(
      "insert into import_jobs (id, username, file_name, total_rows, status) values ($1, $2, $3, $4, 'pending')",
      [id, input.username, input.fileName, input.tickets.length],
    );
    let first = 0;
    for (const [seq, tickets] of chunks.entries()) {
      await tx.query(
        `insert into import_chunks (job_id, seq, idempotency_key, first_row, row_count, tickets, status)
         values ($1, $2, $3, $4, $5, $6::jsonb, 'pending')`,
        [id, seq, randomUUID(), first, tickets.length, JSON.stringify(tickets)],
      );
      first += tickets.length;
    }
  });
  return id;
}

export async function getImportJob(db: Db, id: string): Promise<ImportJob | null> {
  const [job] = await db.query<Omit<ImportJob, "chunks" | "sent_rows" | "created_tickets">>(
    "select id, created_at, updated_at, username, file_name, total_rows, status from import_jobs where id = $1",
    [id],
  );
  if (!job) return null;
  const chunks = await db.query<ImportJob["chunks"][number]>(
    `select seq, first_row, row_count, status, attempts, created_count, idempotency_key, upstream_request_id, last_error
       from import_chunks where job_id = $1 order by seq`,
    [id],
  );
  return {
    ...job,
    created_at: new Date(job.created_at).toISOString(),
    updated_at: new Date(job.updated_at).toISOString(),
    chunks,
    sent_rows: chunks.filter((c) => c.status === "sent").reduce((s, c) => s + c.row_count, 0),
    created_tickets: chunks.reduce((s, c) => s + (c.created_count ?? 0), 0),
  };
}

export async function listImportJobs(db: Db, limit = 20): Promise<ImportJob[]> {
  const ids = await db.query<{ id: string }>("select id from import_jobs order by created_at desc limit $1", [
    limit,
  ]);
  const jobs: ImportJob[] = [];
  for (const { id } of ids) {
    const job = await getImportJob(db, id);
    if (job) jobs.push(job);
  }
  return jobs;
}

/**
 * Sends the next chunk not yet sent (at most one per call, so the browser can show progress and a
 * resume after any failure continues where it stopped). A chunk keeps its Idempotency-Key until it
 * succeeds: re-sending it after a lost answer replays the upstream's first answer, never a second
 * batch. Returns the job afterwards.
 */
export async function sendNextChunk(
  db: Db,
  client: UpstreamClient,
  jobId: string,
  user: Pick<SessionUser, "username" | "role">,
): Promise<ImportJob | null> {
  // Two senders racing on one chunk send the same Idempotency-Key: the upstream runs it once.
  const claimed = await db.query<{ seq: number; idempotency_key: string; tickets: NewTicket[] }>(
    `update import_chunks set attempts = attempts + 1
      where job_id = $1 and seq = (select min(seq) from import_chunks where job_id = $1 and status <> 'sent')
      returning seq, idempotency_key, tickets`,
    [jobId],
  );
  const next = claimed[0];
  if (!next) {
    await db.query(
      "update import_jobs set status = 'completed', updated_at = now() where id = $1 and status <> 'completed'",
      [jobId],
    );
    return getImportJob(db, jobId);
  }
  await db.query("update import_jobs set status = 'running', updated_at = now() where id = $1", [jobId]);
  let requestId: string | null = null;
  let replayed = false;
  const tickets = typeof next.tickets === "string" ? (JSON.parse(next.tickets) as NewTicket[]) : next.tickets;
  try {
    const created = await client.createTickets(tickets, {
      idempotencyKey: next.idempotency_key,
      onResponse: (info) => {
        requestId = info.requestId ?? requestId;
        replayed = info.replayed;
      },
    });
    await db.query(
      `update import_chunks set status = 'sent', created_count = $3, upstream_request_id = $4, sent_at = now(), last_error = null
        where job_id = $1 and seq = $2`,
      [jobId, next.seq, created.data.length, requestId],
    );
    const [left] = await db.query<{ n: number }>(
      "select count(*)::int as n from import_chunks where job_id = $1 and status <> 'sent'",
      [jobId],
    );
    await db.query("update import_jobs set status = $2, updated_at = now() where id = $1", [
      jobId,
      left!.n === 0 ? "completed" : "running",
    ]);
    await recordAudit(db, {
      user,
      action: "tickets.import_chunk",
      target: `${jobId}#${next.seq}`,
      idempotencyKey: next.idempotency_key,
      upstreamRequestId: requestId,
      outcome: "ok",
      detail: { rows: tickets.length, created: created.data.length, ...(replayed ? { replayed: true } : {}) },
    });
  } catch (err) {
    if (!isApiError(err)) throw err;
    const error = {
      status: err.status,
      code: err.code,
      message: plainWords(err),
      request_id: err.request_id ?? requestId,
    };
    await db.query(
      "update import_chunks set status = 'failed', last_error = $3::jsonb where job_id = $1 and seq = $2",
      [jobId, next.seq, JSON.stringify(error)],
    );
    await db.query("update import_jobs set status = 'failed', updated_at = now() where id = $1", [jobId]);
    await recordAudit(db, {
      user,
      action: "tickets.import_chunk",
      target: `${jobId}#${next.seq}`,
      idempotencyKey: next.idempotency_key,
      upstreamRequestId: error.request_id,
      outcome: err.code,
      detail: { rows: tickets.length, status: err.status, message: err.message, param: err.param ?? null },
    });
  }
  return getImportJob(db, jobId);
}
