import { DEMO_TICKET_TYPES } from "./demo-catalog";
import {
  CHECKIN_PROFILE,
  dayIndexAt,
  HOUR,
  MINUTE,
  type SeedContext,
  sampleIn,
  type Ticket,
  type Wristband,
  type WristbandStatus,
  zoneIndex,
} from "./demo-model";
import type { Random } from "./random";

export interface SeededWristbands {
  wristbands: Wristband[];
  /** NFC codes in use (an unknown code at a gate must not be one of them). */
  nfcs: Set<string>;
  /** Per ticket, the wristband of its first check-in (-1: none). */
  checkInWristband: Int32Array;
  /** The second, competing check-in of each pending-review pair. */
  pairSecondCheckIns: { first: number; second: number; at: number; synced: number }[];
  /** Wristband indexes in creation order, and their creation times ascending. */
  byCreated: number[];
  createdSorted: Float64Array;
}

const TYPE_INDEX = new Map(DEMO_TICKET_TYPES.map((t, i) => [t.key, i]));

/**
 * A wristband per checked-in ticket, pending-review pairs, anonymous wristbands bought at a desk,
 * and the final statuses (blocked, lost, released).
 */
export function seedWristbands(ctx: SeedContext, tickets: Ticket[]): SeededWristbands {
  const { scale, now, days, startedDays, pastDays, allDaysMask } = ctx;
  const rWristbands = ctx.random.wristbands;
  const dayIndexFor = (t: number): number => dayIndexAt(days, t);
  const nfcs = new Set<string>();
  const uhfs = new Set<string>();
  const newNfc = (r: Random): string => {
    let c: string;
    do c = `04${r.hex(12)}`.toUpperCase();
    while (nfcs.has(c));
    nfcs.add(c);
    return c;
  };
  const newUhf = (r: Random): string => {
    let c: string;
    do c = `E2801160${r.hex(16)}`.toUpperCase();
    while (uhfs.has(c));
    uhfs.add(c);
    return c;
  };
  const wristbands: Wristband[] = [];
  const vipType = TYPE_INDEX.get("vip")!;
  const crewType = TYPE_INDEX.get("crew")!;
  const makeWristband = (r: Random, ticket: number, createdAt: number): Wristband => {
    const t = ticket >= 0 ? tickets[ticket] : null;
    const zones = t
      ? [...new Set([...DEMO_TICKET_TYPES[t.type].zones.map(zoneIndex), ...t.extraZones])].sort(
          (a, b) => a - b,
        )
      : [zoneIndex("general")];
    const dayMask = t ? t.days.reduce((m, d) => m | (1 << d), 0) : allDaysMask;
    const singleDay = t && !DEMO_TICKET_TYPES[t.type].allDays ? t.days[0] : -1;
    const activeUntil = singleDay >= 0 ? Math.min(now, days[singleDay].end) : now;
    return {
      id: "",
      nfc: newNfc(r),
      uhf: newUhf(r),
      status: "active",
      ticket,
      person: ticket >= 0 ? ticket : tickets.length + wristbands.length,
      zones,
      zoneMask: zones.reduce((m, z) => m | (1 << z), 0),
      dayMask,
      singleDay,
      createdAt,
      statusAt: Number.POSITIVE_INFINITY,
      saleUntil: activeUntil,
      activeUntil,
      propensity: r.float(0.15, 1),
      vip: t?.type === vipType,
      crew: t?.type === crewType,
      flagged: false,
      pair: false,
      balance: 0,
      promo: 0,
      updatedAt: createdAt,
    };
  };
  const checkInWristband = new Int32Array(tickets.length).fill(-1);
  tickets.forEach((t, i) => {
    if (t.status !== "used" || t.checkedInAt === null) return;
    t.wristband = wristbands.length;
    checkInWristband[i] = wristbands.length;
    wristbands.push(makeWristband(rWristbands, i, t.checkedInAt));
  });
  const ticketWristbands = wristbands.length;

  // Pending-review pairs: a second wristband accredited the same ticket shortly after the first.
  const nPairs = Math.max(2, Math.round(10 * Math.min(scale, 1)));
  const pairCandidates = rWristbands.shuffle(
    wristbands
      .map((_, i) => i)
      .filter(
        (i) => wristbands[i].singleDay < 0 && !wristbands[i].crew && wristbands[i].createdAt < now - 4 * HOUR,
      ),
  );
  const pairSecondCheckIns: { first: number; second: number; at: number; synced: number }[] = [];
  for (const a of pairCandidates) {
    if (pairSecondCheckIns.length >= nPairs) break;
    const wa = wristbands[a];
    const d = days[dayIndexFor(wa.createdAt)];
    const t2 = wa.createdAt + Math.floor(rWristbands.float(10 * MINUTE, 120 * MINUTE));
    const review = t2 + Math.floor(rWristbands.float(30 * MINUTE, 90 * MINUTE));
    if (review >= Math.min(d.end, now)) continue;
    const b = wristbands.length;
    const wb = makeWristband(rWristbands, wa.ticket, t2);
    wristbands.push(wb);
    for (const w of [wa, wb]) {
      w.pair = true;
      w.status = "pending_review";
      w.statusAt = review;
      w.activeUntil = review;
      w.saleUntil = review - 10 * MINUTE;
    }
    const ticket = tickets[wa.ticket];
    ticket.updatedAt = review;
    if (rWristbands.chance(0.5)) ticket.wristband = b;
    pairSecondCheckIns.push({ first: a, second: b, at: t2, synced: review });
  }

  // Anonymous wristbands (~5% of all), bought at a top-up desk with credit on them.
  const nAnonymous = Math.max(3, Math.round((ticketWristbands * 0.05) / 0.95));
  for (let i = 0; i < nAnonymous; i++) {
    const d = rWristbands.pick(startedDays);
    const at = sampleIn(rWristbands, d, CHECKIN_PROFILE, d.start, now);
    if (at === null) continue;
    wristbands.push(makeWristband(rWristbands, -1, at));
  }

  // Final statuses: a few blocked, lost and released (a guaranteed minimum of each).
  const others = rWristbands.shuffle(wristbands.map((_, i) => i).filter((i) => !wristbands[i].pair));
  const nReleased = Math.max(2, Math.round(0.06 * others.length));
  const nBlocked = Math.max(2, Math.round(0.015 * others.length));
  const nLost = Math.max(2, Math.round(0.02 * others.length));
  const setStatus = (w: Wristband, status: WristbandStatus, at: number) => {
    w.status = status;
    w.statusAt = at;
    w.activeUntil = Math.min(w.activeUntil, at);
    w.saleUntil = Math.min(w.saleUntil, at);
  };
  /** The release time of a wristband: near the end of the first past night it lived through, or null. */
  const releaseTime = (w: Wristband): number | null => {
    for (const d of pastDays) {
      if (w.singleDay >= 0 && d.index !== w.singleDay) continue;
      if (w.createdAt >= d.end - 45 * MINUTE) continue;
      const latest = Math.min(150 * MINUTE, d.end - w.createdAt - 30 * MINUTE);
      return d.end - Math.floor(rWristbands.float(5 * MINUTE, latest));
    }
    return null;
  };
  let released = 0;
  for (const pass of [0, 1]) {
    for (const i of others) {
      const w = wristbands[i];
      if (released >= nReleased) break;
      if (w.status !== "active" || (pass === 0 && w.singleDay < 0 && w.ticket >= 0)) continue;
      const at = releaseTime(w);
      if (at === null) continue;
      setStatus(w, "released", at);
      released++;
    }
  }
  for (const [status, count] of [
    ["blocked", nBlocked],
    ["lost", nLost],
  ] as const) {
    let done = 0;
    for (const i of others) {
      if (done >= count) break;
      const w = wristbands[i];
      const until = w.activeUntil;
      if (w.status !== "active" || until - w.createdAt < 45 * MINUTE) continue;
      setStatus(w, status, w.createdAt + Math.floor(rWristbands.float(30 * MINUTE, until - w.createdAt)));
      done++;
    }
  }

  const byCreated = wristbands
    .map((_, i) => i)
    .sort((a, b) => wristbands[a].createdAt - wristbands[b].createdAt || a - b);
  const createdSorted = Float64Array.from(byCreated, (i) => wristbands[i].createdAt);
  return { wristbands, nfcs, checkInWristband, pairSecondCheckIns, byCreated, createdSorted };
}
