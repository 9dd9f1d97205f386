import "server-only";

/** The records and cases of the misuse rules (lib/server/gates/misuse-rules.ts). */
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
