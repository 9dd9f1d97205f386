import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { MAX_TICKETS_PER_BATCH, type NewTicket } from "@/lib/contract/requests";
import type { Db, Queryable } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { ImportBody, ImportJob, ImportValidation } from "@/lib/shared/api/staff";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { isUpstreamError, upstreamErrorInfo } from "../http/upstream-errors";
import { recordAudit } from "../store/audit-log";
import { importCatalog } from "../store/import-catalog";
import * as jobs from "../store/import-jobs";
import type { UpstreamClient } from "../upstream/client";
import { validateTicketCsv } from "./import-rows";

export type { ImportJob };

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
  const chunks = chunk(input.tickets, input.chunkSize).map((tickets) => ({
    idempotencyKey: randomUUID(),
    tickets,
  }));
  await jobs.insertJob(
    db,
    { id, username: input.username, fileName: input.fileName, total: input.tickets.length },
    chunks,
  );
  return id;
}

export async function getImportJob(db: Queryable, id: string): Promise<ImportJob | null> {
  const found = await jobs.findJob(db, id);
  if (!found) return null;
  const { job, chunks } = found;
  return {
    ...job,
    chunks,
    sent_rows: chunks.filter((c) => c.status === "sent").reduce((s, c) => s + c.row_count, 0),
    created_tickets: chunks.reduce((s, c) => s + (c.created_count ?? 0), 0),
  };
}

/** A job, or `import_not_found`. */
export async function requireImportJob(db: Queryable, id: string): Promise<ImportJob> {
  const job = /^imp_[0-9a-f]{16}$/.test(id) ? await getImportJob(db, id) : null;
  if (!job) throw new ConsoleError("import_not_found", "There is no such import.");
  return job;
}

export async function listImportJobs(db: Queryable, limit = 20): Promise<ImportJob[]> {
  const found: ImportJob[] = [];
  for (const id of await jobs.latestJobIds(db, limit)) {
    const job = await getImportJob(db, id);
    if (job) found.push(job);
  }
  return found;
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
  const next = await jobs.claimNextChunk(db, jobId);
  if (!next) {
    await jobs.completeJob(db, jobId);
    return getImportJob(db, jobId);
  }
  await jobs.setJobStatus(db, jobId, "running");
  let requestId: string | null = null;
  let replayed = false;
  const audit = {
    user,
    action: "tickets.import_chunk",
    target: `${jobId}#${next.seq}`,
    idempotencyKey: next.idempotency_key,
  };
  try {
    const created = await client.createTickets(next.tickets, {
      idempotencyKey: next.idempotency_key,
      onResponse: (info) => {
        requestId = info.requestId ?? requestId;
        replayed = info.replayed;
      },
    });
    await jobs.markChunkSent(db, jobId, next.seq, { created: created.data.length, requestId });
    await jobs.setJobStatus(db, jobId, (await jobs.chunksLeft(db, jobId)) === 0 ? "completed" : "running");
    await recordAudit(db, {
      ...audit,
      upstreamRequestId: requestId,
      outcome: "ok",
      detail: {
        rows: next.tickets.length,
        created: created.data.length,
        ...(replayed ? { replayed: true } : {}),
      },
    });
  } catch (err) {
    if (!isUpstreamError(err)) throw err;
    const error = upstreamErrorInfo(err, requestId);
    await jobs.markChunkFailed(db, jobId, next.seq, error);
    await jobs.setJobStatus(db, jobId, "failed");
    await recordAudit(db, {
      ...audit,
      upstreamRequestId: error.request_id,
      outcome: err.code,
      detail: {
        rows: next.tickets.length,
        status: err.status,
        message: err.message,
        param: err.param ?? null,
      },
    });
  }
  return getImportJob(db, jobId);
}

/** Validates every row of a ticket CSV against the mirrored catalogue; nothing is stored nor sent. */
export async function validateImport(db: Queryable, body: ImportBody): Promise<ImportValidation> {
  const result = validateTicketCsv(body.csv, await importCatalog(db));
  return result.ok
    ? { ok: true, rows: result.tickets.length }
    : { ok: false, rows: result.rows, errors: result.errors };
}

/** Creates an import of a fully valid CSV (its chunks and their Idempotency-Keys stored first), audited. */
export async function startImport(db: Db, user: SessionUser, body: ImportBody): Promise<ImportJob> {
  const result = validateTicketCsv(body.csv, await importCatalog(db));
  if (!result.ok)
    throw new ConsoleError(
      "invalid_rows",
      `${result.errors.length} row error(s): fix the file, nothing was sent.`,
    );
  const id = await createImportJob(db, {
    username: user.username,
    fileName: body.file_name,
    tickets: result.tickets,
  });
  await recordAudit(db, {
    user,
    action: "tickets.import_created",
    target: id,
    outcome: "ok",
    detail: { file_name: body.file_name, rows: result.tickets.length },
  });
  return requireImportJob(db, id);
}

/** Sends the next chunk of an existing import and answers its progress. */
export async function continueImport(
  dashboard: Dashboard,
  user: SessionUser,
  id: string,
): Promise<ImportJob> {
  await requireImportJob(dashboard.db, id);
  return (
    (await sendNextChunk(dashboard.db, dashboard.upstream, id, user)) ?? requireImportJob(dashboard.db, id)
  );
}
