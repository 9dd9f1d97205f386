"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, useState } from "react";
import { primaryButtonClass, secondaryButtonClass } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { ErrorBox } from "@/components/ui/states";
import { fetchJson, postJson } from "@/lib/shared/api/client";
import { ConsoleError } from "@/lib/shared/api/errors";
import { formatBytes, IMPORT_MAX_BYTES, tooLargeMessage } from "@/lib/shared/api/limits";
import { type ImportJob, ImportJobAnswer, ImportJobList, ImportValidation } from "@/lib/shared/api/staff";
import { escapeBidi } from "@/lib/shared/format/bidi";

/** Ticket import: validate every row first, then send chunks of 500, resumable. */
export function ImportView() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [validation, setValidation] = useState<ImportValidation | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [job, setJob] = useState<ImportJob | null>(null);
  const [running, setRunning] = useState(false);

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const f = e.target.files?.[0];
    setValidation(null);
    setError(null);
    setJob(null);
    if (!f) return setFile(null);
    const text = await f.text();
    // The server's limit, checked before sending (the same words as its 413).
    const size = new Blob([JSON.stringify({ file_name: f.name, csv: text })]).size;
    if (size > IMPORT_MAX_BYTES) {
      setError(new ConsoleError("payload_too_large", tooLargeMessage("The import", size, IMPORT_MAX_BYTES)));
      return setFile(null);
    }
    setFile({ name: f.name, text });
    setBusy(true);
    try {
      setValidation(
        await postJson("/api/import/validate", { file_name: f.name, csv: text }, ImportValidation),
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function run(start: ImportJob) {
    setJob(start);
    setRunning(true);
    setError(null);
    let current = start;
    try {
      while (current.status !== "completed") {
        current = (await postJson(`/api/import/${current.id}`, {}, ImportJobAnswer)).job;
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
      const { job: created } = await postJson(
        "/api/import",
        {
          file_name: file.name,
          csv: file.text,
        },
        ImportJobAnswer,
      );
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
      <Panel title="Import tickets from a CSV file">
        <p className="mb-2 text-sm text-slate-700">
          Columns: <code>code</code> (optional), <code>ticket_type</code>, <code>name</code>,{" "}
          <code>email</code>, <code>document_type</code>, <code>document_number</code>,{" "}
          <code>birth_date</code> (optional), <code>valid_days</code> (names, dates or ids, separated by{" "}
          <code>;</code>), <code>extra_zones</code> (optional). Every row is checked before anything is sent.
          Up to {formatBytes(IMPORT_MAX_BYTES)} per import.
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
            <DataTable
              caption="Problems in the file"
              hiddenCaption
              scrollClassName="mt-2 overflow-x-auto"
              columns={["Line", "Column", "Problem"]}
              // A line can have several problems: the row's place is its key.
              rows={validation.errors.map((e, i) => ({
                key: String(i),
                cells: [e.line, e.column ?? "—", e.message],
              }))}
            />
          </div>
        )}
        {validation?.ok && (
          <div className="mt-3 space-y-2">
            <p role="status" className="text-sm">
              All {validation.rows} rows are valid.
            </p>
            <button type="button" className={primaryButtonClass} disabled={busy} onClick={startImport}>
              Import {validation.rows} tickets
            </button>
          </div>
        )}
      </Panel>
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

function JobProgress({ job, running, onResume }: { job: ImportJob; running: boolean; onResume: () => void }) {
  const percent = job.total_rows ? Math.round((job.sent_rows / job.total_rows) * 100) : 100;
  const failed = job.chunks.find((c) => c.status === "failed");
  return (
    <Panel title={`Import ${escapeBidi(job.file_name)}`}>
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
        <button type="button" className={`${primaryButtonClass} mt-2`} onClick={onResume}>
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
    </Panel>
  );
}

function ImportHistory({ onResume, running }: { onResume: (j: ImportJob) => void; running: boolean }) {
  const query = useQuery({
    queryKey: ["imports"],
    queryFn: () => fetchJson("/api/import", ImportJobList),
  });
  if (query.isPending) return null;
  if (query.isError) return <ErrorBox error={query.error} />;
  if (!query.data.data.length) return null;
  return (
    <Panel title="Recent imports">
      <DataTable
        caption="Recent imports"
        hiddenCaption
        columns={["File", "By", "Rows sent", "Status", { label: "Action", hiddenLabel: true }]}
        rows={query.data.data.map((j) => ({
          key: j.id,
          cells: [
            <SafeText key="file" text={j.file_name} />,
            j.username,
            `${j.sent_rows} / ${j.total_rows}`,
            j.status,
            j.status !== "completed" && (
              <button
                key="resume"
                type="button"
                className={secondaryButtonClass}
                disabled={running}
                onClick={() => onResume(j)}
              >
                Resume
              </button>
            ),
          ],
        }))}
      />
    </Panel>
  );
}
