import "server-only";
import type { NewTicket } from "@/lib/contract";
import type { Db, Queryable } from "@/lib/db/db";
import type { ErrorInfo, ImportChunk, ImportJob } from "@/lib/shared/api/staff";

/** Ticket imports: a job and its chunks, each with the Idempotency-Key it keeps until it succeeds. */

type JobRow = Omit<ImportJob, "chunks" | "sent_rows" | "created_tickets">;

export async function insertJob(
  db: Db,
  job: { id: string; username: string; fileName: string; total: number },
  chunks: { idempotencyKey: string; tickets: NewTicket[] }[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      "insert into import_jobs (id, username, file_name, total_rows, status) values ($1, $2, $3, $4, 'pending')",
      [job.id, job.username, job.fileName, job.total],
    );
    let first = 0;
    for (const [seq, chunk] of chunks.entries()) {
      await tx.query(
        `insert into import_chunks (job_id, seq, idempotency_key, first_row, row_count, tickets, status)
         values ($1, $2, $3, $4, $5, $6::jsonb, 'pending')`,
        [job.id, seq, chunk.idempotencyKey, first, chunk.tickets.length, JSON.stringify(chunk.tickets)],
      );
      first += chunk.tickets.length;
    }
  });
}

export async function findJob(
  db: Queryable,
  id: string,
): Promise<{ job: JobRow; chunks: ImportChunk[] } | null> {
  const [job] = await db.query<JobRow>(
    "select id, created_at, updated_at, username, file_name, total_rows, status from import_jobs where id = $1",
    [id],
  );
  if (!job) return null;
  const chunks = await db.query<ImportChunk>(
    `select seq, first_row, row_count, status, attempts, created_count, idempotency_key, upstream_request_id, last_error
       from import_chunks where job_id = $1 order by seq`,
    [id],
  );
  return { job, chunks };
}

export async function latestJobIds(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    "select id from import_jobs order by created_at desc limit $1",
    [limit],
  );
  return rows.map((r) => r.id);
}

/**
 * Claims the first chunk not yet sent (counting the attempt). Two senders racing on one chunk send
 * the same Idempotency-Key: the upstream runs it once.
 */
export async function claimNextChunk(db: Queryable, jobId: string) {
  const [next] = await db.query<{ seq: number; idempotency_key: string; tickets: NewTicket[] }>(
    `update import_chunks set attempts = attempts + 1
      where job_id = $1 and seq = (select min(seq) from import_chunks where job_id = $1 and status <> 'sent')
      returning seq, idempotency_key, tickets`,
    [jobId],
  );
  return next ?? null;
}

export async function setJobStatus(db: Queryable, jobId: string, status: ImportJob["status"]) {
  await db.query("update import_jobs set status = $2, updated_at = now() where id = $1", [jobId, status]);
}

/** Marks a job completed when it is not already (a no-op otherwise). */
export async function completeJob(db: Queryable, jobId: string) {
  await db.query(
    "update import_jobs set status = 'completed', updated_at = now() where id = $1 and status <> 'completed'",
    [jobId],
  );
}

export async function markChunkSent(
  db: Queryable,
  jobId: string,
  seq: number,
  sent: { created: number; requestId: string | null },
) {
  await db.query(
    `update import_chunks set status = 'sent', created_count = $3, upstream_request_id = $4, sent_at = now(), last_error = null
      where job_id = $1 and seq = $2`,
    [jobId, seq, sent.created, sent.requestId],
  );
}

export async function markChunkFailed(db: Queryable, jobId: string, seq: number, error: ErrorInfo) {
  await db.query(
    "update import_chunks set status = 'failed', last_error = $3::jsonb where job_id = $1 and seq = $2",
    [jobId, seq, JSON.stringify(error)],
  );
}

export async function chunksLeft(db: Queryable, jobId: string): Promise<number> {
  const [left] = await db.query<{ n: number }>(
    "select count(*)::int as n from import_chunks where job_id = $1 and status <> 'sent'",
    [jobId],
  );
  return left!.n;
}
