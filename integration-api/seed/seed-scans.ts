import { DEMO_GATES, DEMO_ZONES } from "./demo-catalog";
import {
  ACCESS_PROFILE,
  countAtOrBefore,
  dayIndexAt,
  HOUR,
  MINUTE,
  type Scan,
  SECOND,
  type SeedContext,
  sampleIn,
  type Ticket,
  type WristbandStatus,
} from "./demo-model";
import { WeightedTable } from "./random";
import type { SeededWristbands } from "./seed-wristbands";

/**
 * Scans: a check-in per used ticket (two for a pending-review pair, the second synced late), access
 * checks at the gates (unknown codes, wrong zones and days included), and blocked or lost
 * wristbands tried at a gate after their status changed.
 */
export function seedScans(ctx: SeedContext, tickets: Ticket[], seeded: SeededWristbands): Scan[] {
  const { scale, now, days, startedDays } = ctx;
  const { wristbands, nfcs, checkInWristband, pairSecondCheckIns, byCreated, createdSorted } = seeded;
  const rScans = ctx.random.scans;
  const dayIndexFor = (t: number): number => dayIndexAt(days, t);
  const scans: Scan[] = [];
  const checkInGates = DEMO_GATES.filter((g) => g.checkIn);
  const checkIn = (t: Ticket, w: number, occurred: number, created: number): Scan => ({
    id: "",
    kind: "check_in",
    allowed: true,
    reason: null,
    code: t.code,
    ticketCode: t.code,
    w,
    zone: -1,
    device: rScans.pick(checkInGates).deviceId,
    occurred,
    created,
  });
  tickets.forEach((t, i) => {
    if (t.status !== "used" || t.checkedInAt === null) return;
    scans.push(checkIn(t, checkInWristband[i], t.checkedInAt, t.checkedInAt));
  });
  for (const p of pairSecondCheckIns) {
    scans.push(checkIn(tickets[wristbands[p.second].ticket], p.second, p.at, p.synced));
  }
  const nAccess = Math.max(30, Math.round(10000 * scale));
  const accessSlots: [{ start: number; end: number }, number][] = [];
  for (const d of startedDays) {
    d.slotStarts.forEach((s, k) => {
      const e = Math.min(s + HOUR, d.end, now);
      if (e > s) accessSlots.push([{ start: s, end: e }, ACCESS_PROFILE[d.slotHours[k]] * ((e - s) / HOUR)]);
    });
  }
  const accessTable = new WeightedTable(accessSlots);
  const zoneTable = new WeightedTable(DEMO_ZONES.map((_, z) => [z, [50, 20, 10, 15, 5][z] ?? 5] as const));
  const gatesByZone = DEMO_ZONES.map((z) =>
    DEMO_GATES.filter((g) => g.zone === z.key).map((g) => g.deviceId),
  );
  for (let k = 0; k < nAccess; k++) {
    const s = accessTable.pick(rScans);
    const t = Math.floor(s.start + rScans.next() * (s.end - s.start));
    const created = Math.min(now, t + Math.floor(rScans.next() * 3 * SECOND));
    const hi = countAtOrBefore(createdSorted, t);
    if (hi === 0 || rScans.chance(0.01)) {
      let code: string;
      do code = `04${rScans.hex(12)}`.toUpperCase();
      while (nfcs.has(code));
      const zone = zoneTable.pick(rScans);
      scans.push({
        id: "",
        kind: "access_check",
        allowed: false,
        reason: "unknown_code",
        code,
        ticketCode: null,
        w: -1,
        zone,
        device: rScans.pick(gatesByZone[zone]),
        occurred: t,
        created,
      });
      continue;
    }
    const dayBit = 1 << dayIndexFor(t);
    let w = -1;
    let status: WristbandStatus = "active";
    for (let attempt = 0; attempt < 40; attempt++) {
      const c = byCreated[Math.floor(rScans.next() * hi)];
      const wb = wristbands[c];
      const st: WristbandStatus = t >= wb.statusAt ? wb.status : "active";
      // Wristbands that left (released, or a day ticket on another day) rarely show up at a gate.
      if ((st === "released" || !(wb.dayMask & dayBit)) && !rScans.chance(0.05)) continue;
      w = c;
      status = st;
      break;
    }
    if (w < 0) continue;
    const wb = wristbands[w];
    const zone = rScans.chance(0.94)
      ? rScans.pick(wb.zones.concat(wb.zones.includes(0) ? [0, 0] : []))
      : zoneTable.pick(rScans);
    let reason: string | null = null;
    if (status !== "active") reason = status;
    else if (!(wb.dayMask & dayBit)) reason = "day_not_valid";
    else if (!(wb.zoneMask & (1 << zone))) reason = "zone_not_allowed";
    scans.push({
      id: "",
      kind: "access_check",
      allowed: reason === null,
      reason,
      code: rScans.chance(0.85) ? wb.nfc : wb.uhf,
      ticketCode: wb.ticket >= 0 ? tickets[wb.ticket].code : null,
      w,
      zone,
      device: rScans.pick(gatesByZone[zone]),
      occurred: t,
      created,
    });
  }

  // Blocked and lost wristbands tried at a gate after their status changed.
  wristbands.forEach((wb, w) => {
    if (wb.status !== "blocked" && wb.status !== "lost") return;
    const d = startedDays.find((day) => day.end > wb.statusAt + MINUTE);
    const t = d ? sampleIn(rScans, d, ACCESS_PROFILE, wb.statusAt + MINUTE, now) : null;
    if (t === null) return;
    const zone = rScans.pick(wb.zones);
    scans.push({
      id: "",
      kind: "access_check",
      allowed: false,
      reason: wb.status,
      code: wb.nfc,
      ticketCode: wb.ticket >= 0 ? tickets[wb.ticket].code : null,
      w,
      zone,
      device: rScans.pick(gatesByZone[zone]),
      occurred: t,
      created: Math.min(now, t + Math.floor(rScans.next() * 3 * SECOND)),
    });
  });
  return scans;
}
