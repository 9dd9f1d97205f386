"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { fetchJson } from "@/lib/bff/fetch-json";
import type { Ticket, TicketView as TicketData } from "@/lib/bff/staff";
import {
  button,
  Card,
  dangerButton,
  ErrorBox,
  Field,
  formatTime,
  input,
  isRetryable,
  postJson,
  secondaryButton,
  useIdempotencyKey,
} from "./ui";

const statusStyle: Record<string, string> = {
  active: "bg-green-100 text-green-900",
  used: "bg-blue-100 text-blue-900",
  inactive: "bg-slate-200 text-slate-800",
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      data-testid="status"
      className={`rounded px-2 py-0.5 text-xs font-semibold ${statusStyle[status] ?? "bg-amber-100 text-amber-900"}`}
    >
      {status.replace("_", " ")}
    </span>
  );
}

export function TicketView({
  code,
  canCheckIn,
  canCancel,
}: {
  code: string;
  canCheckIn: boolean;
  canCancel: boolean;
}) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ["ticket", code],
    queryFn: () => fetchJson<TicketData>(`/api/tickets/${encodeURIComponent(code)}`),
  });
  if (query.isPending) return <p aria-busy="true">Loading the ticket…</p>;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { ticket, timeZone } = query.data;
  const update = (t: Ticket) => queryClient.setQueryData(["ticket", code], { ticket: t, timeZone });
  return (
    <div className="space-y-4">
      <Card title={`Ticket ${ticket.code}`}>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <Field label="Status">
            <StatusBadge status={ticket.status} />
          </Field>
          <Field label="Type">{ticket.ticket_type.name}</Field>
          <Field label="Attendee">
            {ticket.attendee.name} · {ticket.attendee.email}
          </Field>
          <Field label="Document">
            {ticket.attendee.document
              ? `${ticket.attendee.document.type} ····${ticket.attendee.document.last4}`
              : "none"}
          </Field>
          <Field label="Valid days">{ticket.valid_days.map((d) => d.name).join(", ") || "—"}</Field>
          <Field label="Extra zones">{ticket.extra_zones.map((z) => z.name).join(", ") || "none"}</Field>
          <Field label="Wristband">
            {ticket.wristband ? (
              <Link
                className="text-blue-700 underline"
                href={`/wristbands/${encodeURIComponent(ticket.wristband.nfc)}`}
              >
                {ticket.wristband.nfc}
              </Link>
            ) : (
              "none yet"
            )}
          </Field>
          <Field label="Checked in">{formatTime(ticket.checked_in_at, timeZone)}</Field>
          <Field label="Updated">{formatTime(ticket.updated_at, timeZone)}</Field>
        </dl>
      </Card>
      {canCheckIn && ticket.status === "active" && <CheckInForm code={ticket.code} onDone={update} />}
      {canCancel && ticket.status === "active" && <CancelTicket code={ticket.code} onDone={update} />}
    </div>
  );
}

function CheckInForm({ code, onDone }: { code: string; onDone: (t: Ticket) => void }) {
  const [key, renewKey] = useIdempotencyKey();
  const [nfc, setNfc] = useState("");
  const [uhf, setUhf] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || !nfc.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const { ticket } = await postJson<{ ticket: Ticket }>(
        `/api/tickets/${encodeURIComponent(code)}/check-in`,
        {
          nfc: nfc.trim(),
          ...(uhf.trim() ? { uhf: uhf.trim() } : {}),
          idempotency_key: key,
        },
      );
      renewKey();
      onDone(ticket);
    } catch (err) {
      if (!isRetryable(err)) renewKey();
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card title="Check in">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm">
          Wristband NFC code (enter or scan)
          <input
            value={nfc}
            onChange={(e) => {
              setNfc(e.target.value);
              renewKey();
            }}
            className={input}
            autoComplete="off"
          />
        </label>
        <label className="flex flex-col text-sm">
          UHF code (optional)
          <input
            value={uhf}
            onChange={(e) => {
              setUhf(e.target.value);
              renewKey();
            }}
            className={input}
            autoComplete="off"
          />
        </label>
        <button type="submit" className={button} disabled={busy || !nfc.trim()}>
          {busy ? "Checking in…" : "Check in"}
        </button>
      </form>
      {error != null && (
        <div className="mt-3">
          <ErrorBox error={error} />
        </div>
      )}
    </Card>
  );
}

function CancelTicket({ code, onDone }: { code: string; onDone: (t: Ticket) => void }) {
  const [key, renewKey] = useIdempotencyKey();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function cancel() {
    setBusy(true);
    setError(null);
    try {
      const { ticket } = await postJson<{ ticket: Ticket }>(
        `/api/tickets/${encodeURIComponent(code)}/cancel`,
        {
          idempotency_key: key,
        },
      );
      renewKey();
      setConfirming(false);
      onDone(ticket);
    } catch (err) {
      if (!isRetryable(err)) renewKey();
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card title="Cancel this ticket">
      {!confirming ? (
        <button type="button" className={dangerButton} onClick={() => setConfirming(true)}>
          Cancel ticket…
        </button>
      ) : (
        <div role="alertdialog" aria-label="Confirm cancellation" className="space-y-2">
          <p className="text-sm">
            Cancel ticket <strong>{code}</strong>? It can no longer be checked in. This cannot be undone.
          </p>
          <div className="flex gap-2">
            <button type="button" className={dangerButton} disabled={busy} onClick={cancel}>
              {busy ? "Cancelling…" : "Yes, cancel the ticket"}
            </button>
            <button
              type="button"
              className={secondaryButton}
              disabled={busy}
              onClick={() => setConfirming(false)}
            >
              Keep it
            </button>
          </div>
        </div>
      )}
      {error != null && (
        <div className="mt-3">
          <ErrorBox error={error} />
        </div>
      )}
    </Card>
  );
}
