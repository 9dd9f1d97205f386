"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, useState } from "react";
import { fetchJson } from "@/lib/bff/fetch-json";
import type { ImportJobView, RowError } from "@/lib/bff/staff";
import { button, Card, ErrorBox, postJson, secondaryButton } from "./ui";

type Validation = { ok: true; rows: number } | { ok: false; rows: number; errors: RowError[] };

/** Ticket import: validate every row first, then send chunks of 500, resumable. */
export function ImportView() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [validation, setValidation] = useState<Validation | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [job, setJob] = useState<ImportJobView | null>(null);
  const [running, setRunning] = useState(false);

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const f = e.target.files?.[0];
    setValidation(null);
    setError(null);
    setJob(null);
    if (!f) return setFile(null);
    const text = await f.text();
    setFile({ name: f.name, text });
    setBusy(true);
    try {
      setValidation(await postJson<Validation>("/api/import/validate", { file_name: f.name, csv: text }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function run(start: ImportJobView) {
    setJob(start);
    setRunning(true);
    setError(null);
    let current = start;
    try {
      while (current.status !== "completed") {
        current = (await postJson<{ job: ImportJobView }>(`/api/import/${current.id}`, {})).job;
        setJob(current);
        if (current.status === "failed") break;
      }
    } catch (err) {
      setError(err);
    } finally {
      setRunning(false);
      queryClient.invalidateQueries({ queryKey: ["imports"] });
    }
  }

  async function startImport() {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const { job: created } = await postJson<{ job: ImportJobView }>("/api/import", {
        file_name: file.name,
        csv: file.text,
      });
      setValidation(null);
      setFile(null);
      await run(created);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4">
      <Card title="Import tickets from a CSV file">
        <p className="mb-2 text-sm text-slate-700">
          Columns: <code>code</code> (optional), <code>ticket_type</code>, <code>name</code>,{" "}
          <code>email</code>, <code>document_type</code>, <code>document_number</code>,{" "}
          <code>birth_date</code> (optional), <code>valid_days</code> (names, dates or ids, separated by{" "}
          <code>;</code>), <code>extra_zones</code> (optional). Every row is checked before anything is sent.
        </p>
        <label className="flex flex-col text-sm">
          CSV file
          <input type="file" accept=".csv,text/csv" onChange={choose} disabled={busy || running} />
        </label>
        {busy && !running && <p aria-busy="true">Checking the file…</p>}
        {validation && !validation.ok && (
          <div className="mt-3" data-testid="row-errors">
            <p role="alert" className="rounded border border-red-200 bg-red-50 p-2 text-red-800">
              {validation.errors.length} problem(s) in {validation.rows} row(s). Nothing was sent: fix the
              file and choose it again.
            </p>
            <table className="mt-2 w-full text-left text-sm">
              <thead>
                <tr className="border-b border-slate-200">
                  <th className="py-1">Line</th>
                  <th>Column</th>
                  <th>Problem</th>
                </tr>
              </thead>
              <tbody>
                {validation.errors.map((e, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a line can have several errors
                  <tr key={i} className="border-b border-slate-100">
                    <td className="py-1">{e.line}</td>
                    <td>{e.column ?? "—"}</td>
                    <td>{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {validation?.ok && (
          <div className="mt-3 space-y-2">
            <p role="status" className="text-sm">
              All {validation.rows} rows are valid.
            </p>
            <button type="button" className={button} disabled={busy} onClick={startImport}>
              Import {validation.rows} tickets
            </button>
          </div>
        )}
      </Card>
      {job && <JobProgress job={job} running={running} onResume={() => run(job)} />}
      {error != null && (
        <div>
          <ErrorBox error={error} />
          {job && job.status !== "completed" && !running && (
            <p className="mt-1 text-sm">
              The import was interrupted. Resuming sends only what was not sent yet.
            </p>
          )}
        </div>
      )}
      <ImportHistory onResume={(j) => run(j)} running={running} />
    </div>
  );
}

function JobProgress({
  job,
  running,
  onResume,
}: {
  job: ImportJobView;
  running: boolean;
  onResume: () => void;
}) {
  const percent = job.total_rows ? Math.round((job.sent_rows / job.total_rows) * 100) : 100;
  const failed = job.chunks.find((c) => c.status === "failed");
  return (
    <Card title={`Import ${job.file_name}`}>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={job.total_rows}
        aria-valuenow={job.sent_rows}
        className="h-4 w-full overflow-hidden rounded bg-slate-200"
      >
        <div className="h-full bg-blue-700 transition-all" style={{ width: `${percent}%` }} />
      </div>
      <p data-testid="import-progress" className="mt-2 text-sm">
        {job.sent_rows} of {job.total_rows} rows sent ({percent} %) · {job.status}
      </p>
      {failed?.last_error && !running && (
        <p role="alert" className="mt-2 rounded border border-red-200 bg-red-50 p-2 text-sm text-red-800">
          Rows {failed.first_row + 1}–{failed.first_row + failed.row_count} were not imported:{" "}
          {failed.last_error.message}
          {failed.last_error.request_id && ` (request ${failed.last_error.request_id})`}
          {failed.last_error.status >= 400 &&
          failed.last_error.status < 500 &&
          failed.last_error.status !== 429
            ? " The service refused these rows: resuming will be refused the same way. Import them again from a corrected file (rows already sent stay imported)."
            : " Resuming sends them again with the same Idempotency-Key, so nothing is created twice."}
        </p>
      )}
      {job.status !== "completed" && !running && (
        <button type="button" className={`${button} mt-2`} onClick={onResume}>
          Resume import
        </button>
      )}
      {job.status === "completed" && (
        <div data-testid="import-report" className="mt-2 text-sm">
          <p role="status">
            Import complete: {job.created_tickets} tickets created from {job.total_rows} rows in{" "}
            {job.chunks.length} chunk(s).
          </p>
          <ul className="ml-4 list-disc">
            {job.chunks.map((c) => (
              <li key={c.seq}>
                rows {c.first_row + 1}–{c.first_row + c.row_count}: {c.created_count} created, {c.attempts}{" "}
                attempt(s)
                {c.upstream_request_id && `, request ${c.upstream_request_id}`}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}

function ImportHistory({ onResume, running }: { onResume: (j: ImportJobView) => void; running: boolean }) {
  const query = useQuery({
    queryKey: ["imports"],
    queryFn: () => fetchJson<{ data: ImportJobView[] }>("/api/import"),
  });
  if (query.isPending) return null;
  if (query.isError) return <ErrorBox error={query.error} />;
  if (!query.data.data.length) return null;
  return (
    <Card title="Recent imports">
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-slate-200">
            <th className="py-1">File</th>
            <th>By</th>
            <th>Rows sent</th>
            <th>Status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {query.data.data.map((j) => (
            <tr key={j.id} className="border-b border-slate-100">
              <td className="py-1">{j.file_name}</td>
              <td>{j.username}</td>
              <td>
                {j.sent_rows} / {j.total_rows}
              </td>
              <td>{j.status}</td>
              <td>
                {j.status !== "completed" && (
                  <button
                    type="button"
                    className={secondaryButton}
                    disabled={running}
                    onClick={() => onResume(j)}
                  >
                    Resume
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
