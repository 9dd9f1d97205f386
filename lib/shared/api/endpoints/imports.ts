import { z } from "zod";
import { AuditQuery } from "../params";
import {
  AuditPage,
  IMPORT_BODY_LIMIT,
  ImportBody,
  ImportJobAnswer,
  ImportJobList,
  ImportValidation,
} from "../staff";
import { endpoint } from "./define";

/** `{ id }` of routes under `import/[id]` (the feature answers import_not_found for an unknown one). */
const ImportSegment = z.object({ id: z.string() });

/** Ticket imports: validate a CSV, store its chunks, send them (resumable). */
export const imports = {
  list: endpoint({
    name: "imports.list",
    summary: "The latest imports (unfinished ones can be resumed).",
    method: "GET",
    path: "/api/import",
    permission: "tickets.import",
    answer: ImportJobList,
    refresh: "live",
    pushedBy: [],
  }),
  start: endpoint({
    name: "imports.start",
    summary:
      "Creates an import of a fully valid CSV: its chunks and their Idempotency-Keys are stored first.",
    method: "POST",
    path: "/api/import",
    permission: "tickets.import",
    body: ImportBody,
    bodyLimit: IMPORT_BODY_LIMIT,
    answer: ImportJobAnswer,
    status: 201,
    refresh: "once",
  }),
  validate: endpoint({
    name: "imports.validate",
    summary: "Validates every row of a ticket CSV; nothing is stored nor sent.",
    method: "POST",
    path: "/api/import/validate",
    permission: "tickets.import",
    body: ImportBody,
    bodyLimit: IMPORT_BODY_LIMIT,
    answer: ImportValidation,
    refresh: "once",
  }),
  job: endpoint({
    name: "imports.job",
    summary: "One import's progress.",
    method: "GET",
    path: "/api/import/{id}",
    permission: "tickets.import",
    params: ImportSegment,
    answer: ImportJobAnswer,
    refresh: "once",
  }),
  resume: endpoint({
    name: "imports.resume",
    summary:
      "Sends the next chunk not yet sent (with its stored Idempotency-Key) and answers the job's progress.",
    method: "POST",
    path: "/api/import/{id}",
    permission: "tickets.import",
    params: ImportSegment,
    answer: ImportJobAnswer,
    refresh: "once",
  }),
};

/** The audit log of every write. */
export const audit = {
  log: endpoint({
    name: "audit.log",
    summary: "The audit log of every write, newest first (managers).",
    method: "GET",
    path: "/api/audit",
    permission: "audit.view",
    query: AuditQuery,
    answer: AuditPage,
    refresh: "live",
    pushedBy: ["night", "alerts"],
  }),
};
