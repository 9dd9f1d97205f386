import "server-only";
import type { GateRuleSettings, MisuseCase, SaleFact, ScanFact, TopupFact } from "../store/gates-misuse";

/**
 * The misuse rules (issue 28), pure: the rule step (evaluate.ts) hands each rule the records the
 * last polls brought and their neighbours read by index, and stores the cases they answer. A case
 * has a key that makes it once: the same pair found again (a record re-read, the other record of
 * the pair arriving later) is the same case.
 */

export type {
  EvidenceRef,
  GateRuleSettings,
  MisuseCase,
  MisuseKind,
  SaleFact,
  ScanFact,
  TopupFact,
} from "../store/gates-misuse";

export const DEFAULT_RULES: GateRuleSettings = {
  walkMinMs: 60_000,
  walkPairs: new Map(),
  doubleSwipeMs: 10_000,
  burstCount: 10,
  burstWindowMs: 300_000,
};

/**
 * A device's clock offset is the smallest delay seen between its records' occurred_at and their
 * arrival upstream (created_at, the service's clock), kept per device and day in g_device_clock as
 * batches arrive. A record cannot arrive before it happened, so a device ahead of the service shows
 * a negative delay, and one behind shows its lag on every record it sends at once. A smallest delay
 * above this is an offline device, not a clock: not used.
 */
export const MAX_CLOCK_OFFSET_MS = 120_000;

export const ms = (iso: string) => Date.parse(iso);

export function clockOffset(smallestDelayMs: number | undefined): number {
  if (smallestDelayMs === undefined || smallestDelayMs > MAX_CLOCK_OFFSET_MS) return 0;
  return smallestDelayMs;
}

export const holderOf = (s: Pick<ScanFact, "wristband_id" | "ticket_code">) =>
  s.wristband_id ?? (s.ticket_code ? `t:${s.ticket_code}` : null);

export function walkMinimum(settings: GateRuleSettings, a: string, b: string): number {
  const key = a < b ? `${a}|${b}` : `${b}|${a}`;
  return settings.walkPairs.get(key) ?? settings.walkMinMs;
}

/** The longest walk minimum any pair has (how far apart the neighbours are read). */
export const longestWalk = (s: GateRuleSettings) => Math.max(s.walkMinMs, ...s.walkPairs.values());

const newest = (xs: string[]) => xs.reduce((a, b) => (ms(b) > ms(a) ? b : a));
const oldest = (xs: string[]) => xs.reduce((a, b) => (ms(b) < ms(a) ? b : a));

/**
 * One holder allowed at two zones by two devices closer in time than the walk between them, each
 * time corrected by its device's clock offset. Two zones of one device are not a walk (a handheld
 * moved between doors: the person stood at it). `fresh` are the new scans, `neighbours` every
 * allowed scan of their holders around them (the fresh ones included).
 */
export function impossibleWalks(
  fresh: ScanFact[],
  neighbours: ScanFact[],
  offsets: Map<string, number>,
  settings: GateRuleSettings,
): MisuseCase[] {
  const byHolder = new Map<string, ScanFact[]>();
  for (const s of neighbours) {
    const h = holderOf(s);
    if (!h || !s.allowed || !s.zone_id) continue;
    byHolder.set(h, [...(byHolder.get(h) ?? []), s]);
  }
  const at = (s: ScanFact) => ms(s.occurred_at) + clockOffset(offsets.get(s.device_id ?? ""));
  const cases = new Map<string, MisuseCase>();
  for (const n of fresh) {
    const h = holderOf(n);
    if (!h || !n.allowed || !n.zone_id) continue;
    for (const m of byHolder.get(h) ?? []) {
      if (m.id === n.id || m.zone_id === n.zone_id || !m.zone_id) continue;
      if (m.device_id !== null && m.device_id === n.device_id) continue;
      const gap = Math.abs(at(n) - at(m));
      const minimum = walkMinimum(settings, n.zone_id, m.zone_id);
      if (gap >= minimum) continue;
      const [first, second] = at(m) <= at(n) ? [m, n] : [n, m];
      const key = `impossible_walk:${[m.id, n.id].sort().join(":")}`;
      cases.set(key, {
        kind: "impossible_walk",
        key,
        subject: h,
        severity: "warning",
        firstAt: first.occurred_at,
        lastAt: second.occurred_at,
        arrivedAt: newest([m.created_at, n.created_at]),
        figures: {
          holder: h,
          ticket_code: n.ticket_code ?? m.ticket_code,
          from_zone: first.zone_id,
          to_zone: second.zone_id,
          from_device: first.device_id,
          to_device: second.device_id,
          seconds: Math.round(gap / 1000),
          minimum_s: Math.round(minimum / 1000),
        },
        evidence: [
          { resource: "scans", id: first.id },
          { resource: "scans", id: second.id },
        ],
      });
    }
  }
  return [...cases.values()];
}

/**
 * A ticket allowed through check-in more than once: checked in twice, or a second wristband linked
 * to it. `checkIns` are every allowed check-in of the tickets with a fresh one. One case per ticket.
 */
export function doubleCheckIns(checkIns: ScanFact[]): MisuseCase[] {
  const byTicket = new Map<string, ScanFact[]>();
  for (const s of checkIns) {
    if (s.kind !== "check_in" || !s.allowed || !s.ticket_code) continue;
    byTicket.set(s.ticket_code, [...(byTicket.get(s.ticket_code) ?? []), s]);
  }
  return [...byTicket.entries()]
    .filter(([, xs]) => xs.length >= 2)
    .map(([ticket, xs]) => {
      const sorted = [...xs].sort(
        (a, b) => ms(a.occurred_at) - ms(b.occurred_at) || a.id.localeCompare(b.id),
      );
      const wristbands = new Set(sorted.map((s) => s.wristband_id).filter(Boolean));
      return {
        kind: "double_checkin" as const,
        key: `double_checkin:${ticket}`,
        subject: ticket,
        severity: "warning" as const,
        firstAt: sorted[0]!.occurred_at,
        lastAt: sorted[sorted.length - 1]!.occurred_at,
        arrivedAt: newest(sorted.map((s) => s.created_at)),
        figures: {
          ticket_code: ticket,
          check_ins: sorted.length,
          wristbands: wristbands.size,
          devices: new Set(sorted.map((s) => s.device_id)).size,
        },
        evidence: sorted.map((s) => ({ resource: "scans" as const, id: s.id })),
      };
    });
}

/**
 * A terminal charging the same wristband the same amount twice within the window (occurred_at of
 * one device: its own clock, no skew between the two). `neighbours`: sales of the same devices
 * and wristbands around the fresh ones.
 */
export function doubleSwipes(
  fresh: SaleFact[],
  neighbours: SaleFact[],
  settings: GateRuleSettings,
): MisuseCase[] {
  const cases = new Map<string, MisuseCase>();
  const charge = (s: SaleFact) =>
    s.status === "completed" && s.type === "cart" && s.payment_method === "wristband" && s.device_id !== null;
  for (const n of fresh) {
    if (!charge(n)) continue;
    for (const m of neighbours) {
      if (m.id === n.id || !charge(m) || m.device_id !== n.device_id) continue;
      if (m.wristband_id !== n.wristband_id || m.total !== n.total) continue;
      const gap = Math.abs(ms(m.occurred_at) - ms(n.occurred_at));
      if (gap > settings.doubleSwipeMs) continue;
      const [first, second] = ms(m.occurred_at) <= ms(n.occurred_at) ? [m, n] : [n, m];
      const key = `double_swipe:${[m.id, n.id].sort().join(":")}`;
      cases.set(key, {
        kind: "double_swipe",
        key,
        subject: `${n.device_id}:${n.wristband_id}`,
        severity: "warning",
        firstAt: first.occurred_at,
        lastAt: second.occurred_at,
        arrivedAt: newest([m.created_at, n.created_at]),
        figures: {
          device_id: n.device_id,
          wristband_id: n.wristband_id,
          amount: n.total,
          seconds: Math.round(gap / 100) / 10,
        },
        evidence: [
          { resource: "sales", id: first.id },
          { resource: "sales", id: second.id },
        ],
      });
    }
  }
  return [...cases.values()];
}

/**
 * Offline records that took a balance below zero. The paid balance is replayed in the order the
 * service applied the records (created_at): a paid top-up or withdrawal states it (new_balance), a
 * promo top-up states the promo balance, a wristband sale spends the promo balance first. A sale that
 * arrived late (made offline) and leaves the paid balance below zero makes a case, one per wristband
 * and top-up it followed; its evidence is the sales since that top-up.
 */
export function offlineDoubleSpends(
  wristbandId: string,
  sales: SaleFact[],
  topups: TopupFact[],
  lateAfterMs: number,
): MisuseCase[] {
  type Step = { at: number; id: string; sale?: SaleFact; topup?: TopupFact };
  const steps: Step[] = [
    ...sales
      .filter((s) => s.status === "completed" && s.payment_method === "wristband")
      .map((s) => ({ at: ms(s.created_at), id: s.id, sale: s })),
    ...topups
      .filter((t) => t.status === "completed")
      .map((t) => ({ at: ms(t.created_at), id: t.id, topup: t })),
  ];
  // One instant: the top-up first (a desk's write and a bar's burst at once: the sale spends it).
  steps.sort((a, b) => a.at - b.at || (a.topup ? 0 : 1) - (b.topup ? 0 : 1) || a.id.localeCompare(b.id));
  let paid = 0;
  let promo = 0;
  let since: TopupFact | null = null;
  let spent: SaleFact[] = [];
  const cases = new Map<string, MisuseCase>();
  for (const step of steps) {
    if (step.topup) {
      if (step.topup.payment_method === "promo") promo = step.topup.new_balance;
      else {
        paid = step.topup.new_balance;
        since = step.topup;
        spent = [];
      }
      continue;
    }
    const s = step.sale!;
    const amount = s.type === "return" ? -Math.abs(s.total) : s.total;
    const fromPromo = amount > 0 ? Math.min(Math.max(promo, 0), amount) : 0;
    promo -= fromPromo;
    paid -= amount - fromPromo;
    spent.push(s);
    const late = ms(s.created_at) - ms(s.occurred_at) > lateAfterMs;
    if (paid >= 0 || !late) continue;
    const key = `offline_double_spend:${wristbandId}:${since?.id ?? "start"}`;
    const offline = spent.filter((x) => ms(x.created_at) - ms(x.occurred_at) > lateAfterMs);
    cases.set(key, {
      kind: "offline_double_spend",
      key,
      subject: wristbandId,
      severity: "warning",
      firstAt: oldest(spent.map((x) => x.occurred_at)),
      lastAt: newest(spent.map((x) => x.occurred_at)),
      arrivedAt: newest(spent.map((x) => x.created_at)),
      figures: {
        wristband_id: wristbandId,
        balance: paid,
        offline_sales: offline.length,
        offline_amount: offline.reduce((n, x) => n + x.total, 0),
        devices: new Set(offline.map((x) => x.device_id)).size,
      },
      evidence: [
        ...(since ? [{ resource: "topups" as const, id: since.id }] : []),
        ...spent.map((x) => ({ resource: "sales" as const, id: x.id })),
      ],
    });
  }
  return [...cases.values()];
}

/** A burst must also be this many times the gate's normal denials of that reason in a window. */
export const BURST_OVER_NORMAL = 3;

/**
 * Bursts of denied scans of one reason at one device: at least burstCount within burstWindowMs of
 * occurred_at, and more than BURST_OVER_NORMAL times that gate's usual rate of that reason
 * (`normal`, per window, keyed `device|reason`: a door that turns away a steady stream of
 * wrong-zone wristbands is not having a burst). `denied` are that device's denied scans of that
 * reason around the fresh ones; each maximal run of overlapping windows is one burst, keyed by its
 * first scan.
 */
export function deniedBursts(
  denied: ScanFact[],
  settings: GateRuleSettings,
  normal: Map<string, number> = new Map(),
): MisuseCase[] {
  const groups = new Map<string, ScanFact[]>();
  for (const s of denied) {
    if (s.allowed || !s.device_id) continue;
    const k = `${s.device_id}\u0000${s.reason ?? ""}`;
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  const out: MisuseCase[] = [];
  for (const xs of groups.values()) {
    const sorted = [...xs].sort((a, b) => ms(a.occurred_at) - ms(b.occurred_at) || a.id.localeCompare(b.id));
    let run: ScanFact[] | null = null;
    const flush = () => {
      if (!run) return;
      const first = run[0]!;
      const reason = first.reason ?? "";
      const usual = normal.get(`${first.device_id}|${reason}`) ?? 0;
      if (run.length <= BURST_OVER_NORMAL * usual) {
        run = null;
        return;
      }
      out.push({
        kind: "denied_burst",
        key: `denied_burst:${first.device_id}:${reason}:${first.id}`,
        subject: `${first.device_id}:${reason}`,
        severity: "warning",
        firstAt: first.occurred_at,
        lastAt: run[run.length - 1]!.occurred_at,
        arrivedAt: newest(run.map((s) => s.created_at)),
        figures: {
          device_id: first.device_id,
          zone_id: first.zone_id,
          reason,
          denied: run.length,
          window_s: Math.round(settings.burstWindowMs / 1000),
          normal: Math.round(usual * 10) / 10,
        },
        evidence: run.slice(0, 100).map((s) => ({ resource: "scans" as const, id: s.id })),
      });
      run = null;
    };
    for (let i = 0; i + settings.burstCount - 1 < sorted.length; i++) {
      const end = i + settings.burstCount - 1;
      const inWindow = ms(sorted[end]!.occurred_at) - ms(sorted[i]!.occurred_at) <= settings.burstWindowMs;
      if (!inWindow) continue;
      const window = sorted.slice(i, end + 1);
      if (run && ms(window[0]!.occurred_at) <= ms(run[run.length - 1]!.occurred_at)) {
        const seen = new Set(run.map((s) => s.id));
        run.push(...window.filter((s) => !seen.has(s.id)));
      } else {
        flush();
        run = window;
      }
    }
    flush();
  }
  return out;
}
