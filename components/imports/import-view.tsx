"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { type ChangeEvent, useState } from "react";
import { primaryButtonClass, secondaryButtonClass } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { useValueText } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { ErrorBox } from "@/components/ui/states";
import { keyOf, useEndpoint } from "@/components/ui/use-endpoint";
import { call } from "@/lib/shared/api/call";
import { endpoints } from "@/lib/shared/api/endpoints";
import { ConsoleError } from "@/lib/shared/api/errors";
import { formatBytes, IMPORT_MAX_BYTES } from "@/lib/shared/api/limits";
import type { ImportJob, ImportValidation } from "@/lib/shared/api/staff";
import { escapeBidi } from "@/lib/shared/format/bidi";

/** Ticket import: validate every row first, then send chunks of 500, resumable. */
export function ImportView() {
  const t = useTranslations("import");
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
      setError(
        new ConsoleError(
          "payload_too_large",
          t("tooLarge", { size: formatBytes(size), limit: formatBytes(IMPORT_MAX_BYTES) }),
        ),
      );
      return setFile(null);
    }
    setFile({ name: f.name, text });
    setBusy(true);
    try {
      setValidation(await call(endpoints.imports.validate, { body: { file_name: f.name, csv: text } }));
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
        current = (await call(endpoints.imports.resume, { params: { id: current.id } })).job;
        setJob(current);
        if (current.status === "failed") break;
      }
    } catch (err) {
      setError(err);
    } finally {
      setRunning(false);
      queryClient.invalidateQueries({ queryKey: keyOf(endpoints.imports.list) });
    }
  }

  async function startImport() {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const { job: created } = await call(endpoints.imports.start, {
        body: { file_name: file.name, csv: file.text },
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
      <Panel title={t("title")}>
        <p className="mb-2 text-sm text-slate-700">
          {t.rich("columns", { max: formatBytes(IMPORT_MAX_BYTES), c: (chunks) => <code>{chunks}</code> })}
        </p>
        <label className="flex flex-col text-sm">
          {t("file")}
          <input type="file" accept=".csv,text/csv" onChange={choose} disabled={busy || running} />
        </label>
        {busy && !running && <p aria-busy="true">{t("checking")}</p>}
        {validation && !validation.ok && (
          <div className="mt-3" data-testid="row-errors">
            <p role="alert" className="rounded border border-red-200 bg-red-50 p-2 text-red-800">
              {t("problems", { errors: validation.errors.length, rows: validation.rows })}
            </p>
            <DataTable
              caption={t("problemsCaption")}
              hiddenCaption
              scrollClassName="mt-2 overflow-x-auto"
              columns={[t("line"), t("column"), t("problem")]}
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
              {t("allValid", { rows: validation.rows })}
            </p>
            <button type="button" className={primaryButtonClass} disabled={busy} onClick={startImport}>
              {t("importRows", { rows: validation.rows })}
            </button>
          </div>
        )}
      </Panel>
      {job && <JobProgress job={job} running={running} onResume={() => run(job)} />}
      {error != null && (
        <div>
          <ErrorBox error={error} />
          {job && job.status !== "completed" && !running && (
            <p className="mt-1 text-sm">{t("interrupted")}</p>
          )}
        </div>
      )}
      <ImportHistory onResume={(j) => run(j)} running={running} />
    </div>
  );
}

function JobProgress({ job, running, onResume }: { job: ImportJob; running: boolean; onResume: () => void }) {
  const percent = job.total_rows ? Math.round((job.sent_rows / job.total_rows) * 100) : 100;
  const t = useTranslations("import");
  const value = useValueText();
  const failed = job.chunks.find((c) => c.status === "failed");
  return (
    <Panel title={t("jobTitle", { file: escapeBidi(job.file_name) })}>
      <div
        role="progressbar"
        aria-label={t("progress")}
        aria-valuemin={0}
        aria-valuemax={job.total_rows}
        aria-valuenow={job.sent_rows}
        className="h-4 w-full overflow-hidden rounded bg-slate-200"
      >
        <div className="h-full bg-blue-700 transition-all" style={{ width: `${percent}%` }} />
      </div>
      <p data-testid="import-progress" className="mt-2 text-sm">
        {t("sent", { sent: job.sent_rows, total: job.total_rows, percent, status: value(job.status) })}
      </p>
      {failed?.last_error && !running && (
        <p role="alert" className="mt-2 rounded border border-red-200 bg-red-50 p-2 text-sm text-red-800">
          {t("notImported", {
            from: failed.first_row + 1,
            to: failed.first_row + failed.row_count,
            message: failed.last_error.message,
          })}
          {failed.last_error.request_id && t("request", { id: failed.last_error.request_id })}
          {failed.last_error.status >= 400 &&
          failed.last_error.status < 500 &&
          failed.last_error.status !== 429
            ? t("refused")
            : t("retryable")}
        </p>
      )}
      {job.status !== "completed" && !running && (
        <button type="button" className={`${primaryButtonClass} mt-2`} onClick={onResume}>
          {t("resume")}
        </button>
      )}
      {job.status === "completed" && (
        <div data-testid="import-report" className="mt-2 text-sm">
          <p role="status">
            {t("complete", {
              created: job.created_tickets ?? 0,
              rows: job.total_rows,
              chunks: job.chunks.length,
            })}
          </p>
          <ul className="ml-4 list-disc">
            {job.chunks.map((c) => (
              <li key={c.seq}>
                {t("chunk", {
                  from: c.first_row + 1,
                  to: c.first_row + c.row_count,
                  created: c.created_count ?? 0,
                  attempts: c.attempts,
                })}
                {c.upstream_request_id && t("chunkRequest", { id: c.upstream_request_id })}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Panel>
  );
}

function ImportHistory({ onResume, running }: { onResume: (j: ImportJob) => void; running: boolean }) {
  const t = useTranslations("import");
  const value = useValueText();
  const query = useEndpoint(endpoints.imports.list, {});
  if (query.isPending) return null;
  if (query.isError) return <ErrorBox error={query.error} />;
  if (!query.data.data.length) return null;
  return (
    <Panel title={t("recent")}>
      <DataTable
        caption={t("recentCaption")}
        hiddenCaption
        columns={[
          t("fileColumn"),
          t("by"),
          t("rowsSent"),
          t("status"),
          { label: t("action"), hiddenLabel: true },
        ]}
        rows={query.data.data.map((j) => ({
          key: j.id,
          cells: [
            <SafeText key="file" text={j.file_name} />,
            // A username is data, never a word of the console (nor translated).
            <SafeText key="by" text={j.username} />,
            `${j.sent_rows} / ${j.total_rows}`,
            value(j.status),
            j.status !== "completed" && (
              <button
                key="resume"
                type="button"
                className={secondaryButtonClass}
                disabled={running}
                onClick={() => onResume(j)}
              >
                {t("resumeShort")}
              </button>
            ),
          ],
        }))}
      />
    </Panel>
  );
}
