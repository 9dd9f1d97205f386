/** Shapes the staff route handlers answer with (types only: safe for the browser). */
import type { Ticket, Topup, TopupBonusQuote, Transaction, Wristband } from "@/lib/contract";

export type { Ticket, Topup, TopupBonusQuote, Transaction, Wristband };

export interface SearchResult {
  kind: "ticket" | "wristband";
  code: string;
}

export interface TicketView {
  ticket: Ticket;
  timeZone: string;
}

export interface TicketListView {
  data: Ticket[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface WristbandView {
  wristband: Wristband;
  currency: string;
  timeZone: string;
  days: { id: string; name: string }[];
  /** Top-ups of this wristband from the mirror (newest first). */
  topups: Topup[];
}

export interface SalesPage {
  data: Transaction[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface DeskQuote {
  quote: TopupBonusQuote["data"];
  currency: string;
}

export interface DeskWristband {
  wristband: Wristband;
  currency: string;
}

export interface ReviewMember {
  wristband: Wristband;
}
export interface ReviewPair {
  ticket_code: string | null;
  attendee: string | null;
  since: string;
  members: Wristband[];
}
export interface ReviewView {
  pairs: ReviewPair[];
  currency: string;
  refreshedAt: string;
}

export interface RowError {
  line: number;
  column: string | null;
  message: string;
}

export interface ImportChunkView {
  seq: number;
  first_row: number;
  row_count: number;
  status: "pending" | "sent" | "failed";
  attempts: number;
  created_count: number | null;
  idempotency_key: string;
  upstream_request_id: string | null;
  last_error: { status: number; code: string; message: string; request_id: string | null } | null;
}
export interface ImportJobView {
  id: string;
  created_at: string;
  updated_at: string;
  username: string;
  file_name: string;
  total_rows: number;
  status: "pending" | "running" | "failed" | "completed";
  chunks: ImportChunkView[];
  sent_rows: number;
  created_tickets: number;
}

export interface AuditEntryView {
  id: string;
  at: string;
  username: string;
  role: string;
  action: string;
  target: string | null;
  idempotency_key: string | null;
  upstream_request_id: string | null;
  outcome: string;
  detail: Record<string, unknown>;
}
