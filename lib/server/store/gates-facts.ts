import "server-only";

/** The records and cases of the misuse rules (lib/server/gates/misuse-rules.ts), and their rows. */

export const SCAN_COLUMNS = `id, kind, allowed, reason, ticket_code, wristband_id, zone_id, device_id, day_id,
  occurred_at, created_at`;
export const SALE_COLUMNS = `id, type, status, payment_method, total, wristband_id, device_id, day_id, occurred_at,
  created_at`;

export const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));
export const scanRow = (r: ScanFact): ScanFact => ({
  ...r,
  occurred_at: iso(r.occurred_at),
  created_at: iso(r.created_at),
});
export const saleRow = (r: SaleFact): SaleFact => ({
  ...r,
  total: Number(r.total),
  occurred_at: iso(r.occurred_at),
  created_at: iso(r.created_at),
});

export interface ScanFact {
  id: string;
  kind: string;
  allowed: boolean;
  reason: string | null;
  ticket_code: string | null;
  wristband_id: string | null;
  zone_id: string | null;
  device_id: string | null;
  day_id: string;
  occurred_at: string;
  created_at: string;
}

export interface SaleFact {
  id: string;
  type: string;
  status: string;
  payment_method: string;
  total: number;
  wristband_id: string;
  device_id: string | null;
  day_id: string;
  occurred_at: string;
  created_at: string;
}

export interface TopupFact {
  id: string;
  direction: string;
  amount: number;
  new_balance: number;
  payment_method: string;
  status: string;
  wristband_id: string;
  device_id: string | null;
  occurred_at: string;
  created_at: string;
}

export type MisuseKind =
  | "impossible_walk"
  | "double_checkin"
  | "double_swipe"
  | "offline_double_spend"
  | "denied_burst";

export interface EvidenceRef {
  resource: "scans" | "sales" | "topups";
  id: string;
}

export interface MisuseCase {
  kind: MisuseKind;
  key: string;
  subject: string;
  severity: "info" | "warning" | "critical";
  /** The first and the last record's occurred_at. */
  firstAt: string;
  lastAt: string;
  /** The newest created_at among the evidence: when the case became visible upstream. */
  arrivedAt: string;
  figures: Record<string, string | number | null>;
  evidence: EvidenceRef[];
}

export interface GateRuleSettings {
  walkMinMs: number;
  /** Per pair of zones (`a|b`, a < b), over walkMinMs. */
  walkPairs: Map<string, number>;
  doubleSwipeMs: number;
  burstCount: number;
  burstWindowMs: number;
}
