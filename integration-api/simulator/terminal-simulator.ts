import { ApiError } from "../errors";
import type { Services } from "../http/context";
import {
  DEMO_GATES,
  DEMO_REFUND_DEVICES,
  DEMO_STANDS,
  DEMO_TOPUP_DEVICES,
  DEMO_TOPUP_PRESETS,
  DEMO_ZONES,
} from "../seed/demo-catalog";
import { Random } from "../seed/random";
import type { Origin } from "../services/write-service";
import { UNRESTRICTED } from "../store/sql";
import { injectMisuse, type MisuseCaseKind } from "./misuse-cases";
import { cartAt, sendBuffered, type Terminal } from "./offline-terminal";

/**
 * The sandbox's terminals: bars, food and merch stands sell carts, top-up desks load wristbands
 * with the bonus rules, refund desks withdraw, gates accredit tickets and scan zones. Terminals
 * write through the service layer (their own sync channel), never through the public API.
 *
 * A share of terminals go offline for a while, keep working, and sync their buffer in a burst when
 * they come back: those records have `occurred_at` well before `created_at`, sometimes after their
 * night has ended; an offline sale may push a balance negative; two offline gates may accredit the
 * same ticket with different wristbands, which leaves a pending_review pair.
 */

export interface SimulatorOptions {
  /** Events per second. */
  rate: number;
  seed?: number;
  /** The terminals' clock (default the service's); a test can run simulated time faster than real time. */
  clock?: () => Date;
  log?: (message: string) => void;
  /** Chance, per online terminal and event, that the terminal loses its connection (default 0.0008). */
  offlineChance?: number;
  /**
   * Caps an offline period, in minutes (default: none — minutes mostly, sometimes hours). A test
   * running a few simulated minutes uses it to see terminals come back and sync.
   */
  maxOfflineMinutes?: number;
}

export interface SimulatorStats {
  events: number;
  sales: number;
  offlineSales: number;
  topups: number;
  withdrawals: number;
  checkIns: number;
  accessChecks: number;
  reviewPairs: number;
  rejected: number;
}

const ACTIVE_POOL = 400;

export class TerminalSimulator {
  private readonly rng: Random;
  private readonly clock: () => Date;
  private readonly terminals = new Map<string, Terminal>();
  private wristbands: { id: string; nfc: string }[] = [];
  private poolLoadedAt = 0;
  /** Tickets created after this (through the API, by an integrator or a test) are theirs to use. */
  private readonly startedAt: Date;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  readonly stats: SimulatorStats = {
    events: 0,
    sales: 0,
    offlineSales: 0,
    topups: 0,
    withdrawals: 0,
    checkIns: 0,
    accessChecks: 0,
    reviewPairs: 0,
    rejected: 0,
  };

  constructor(
    private readonly services: Services,
    private readonly options: SimulatorOptions,
  ) {
    this.rng = new Random(options.seed ?? Date.now() % 2 ** 31);
    this.clock = options.clock ?? services.clock;
    this.startedAt = this.clock();
    const devices = [
      ...DEMO_STANDS.map((s) => s.deviceId),
      ...DEMO_TOPUP_DEVICES,
      ...DEMO_REFUND_DEVICES,
      ...DEMO_GATES.map((g) => g.deviceId),
    ];
    for (const deviceId of devices)
      this.terminals.set(deviceId, { deviceId, offlineUntil: null, buffer: [] });
  }

  /**
   * Runs events at the configured rate until stop(). One event at a time, never overlapping. A slow
   * moment (a terminal syncing its buffer) is caught up afterwards, but at most five seconds of
   * events wait: when the store cannot keep up at all, further ticks are skipped rather than
   * queued, so the backlog (and what stop() drains) stays bounded.
   */
  start(): void {
    const interval = 1000 / this.options.rate;
    const maxQueued = Math.max(1, Math.ceil(this.options.rate * 5));
    let queued = 0;
    this.timer = setInterval(() => {
      if (queued >= maxQueued) return;
      queued++;
      this.running = this.running
        .then(() => this.step())
        .catch((err) => this.options.log?.(`simulator: ${err}`))
        .finally(() => {
          queued--;
        });
    }, interval);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** The simulated terminals' device ids. */
  get deviceIds(): string[] {
    return [...this.terminals.keys()];
  }

  /**
   * Sandbox control: the terminal loses its connection for `minutes` (default a day) and keeps
   * working into its buffer. Answers false for an unknown device.
   */
  takeOffline(deviceId: string, minutes = 24 * 60): boolean {
    const terminal = this.terminals.get(deviceId);
    if (!terminal) return false;
    terminal.offlineUntil = new Date(this.clock().getTime() + minutes * 60_000);
    this.options.log?.(`simulator: ${deviceId} taken offline for ${minutes} min`);
    return true;
  }

  /**
   * Sandbox control: the terminal's connection is back; its buffer is sent now, in one burst, after
   * the event in progress. Answers how many records it sent (null: unknown device).
   */
  async bringBack(deviceId: string): Promise<number | null> {
    const terminal = this.terminals.get(deviceId);
    if (!terminal) return null;
    const buffered = terminal.buffer.length;
    const run = this.running.then(async () => {
      terminal.offlineUntil = new Date(0);
      await this.syncReturningTerminals(this.clock());
    });
    this.running = run.catch(() => undefined);
    await run;
    return buffered;
  }

  /**
   * Sandbox control: every offline terminal's connection is back and its buffer sent now, after the
   * event in progress; resolves once written. Answers how many records were sent.
   */
  async drain(): Promise<number> {
    let sent = 0;
    const run = this.running.then(async () => {
      for (const terminal of this.terminals.values()) {
        if (!terminal.offlineUntil) continue;
        sent += terminal.buffer.length;
        terminal.offlineUntil = new Date(0);
      }
      await this.syncReturningTerminals(this.clock());
    });
    this.running = run.catch(() => undefined);
    await run;
    return sent;
  }

  /**
   * Sandbox control: `count` sales at a stand now, after the event in progress (into its buffer while
   * it is offline). Answers null for a device that is not a stand, else the sales made.
   */
  async sellAt(deviceId: string, count: number): Promise<number | null> {
    const stand = DEMO_STANDS.find((s) => s.deviceId === deviceId);
    if (!stand) return null;
    const run = this.running.then(async () => {
      await this.refreshPool(this.clock());
      for (let i = 0; i < count; i++) await this.sale(this.clock(), stand);
    });
    this.running = run.catch(() => undefined);
    await run;
    return count;
  }

  /** Sandbox control: `count` withdrawals at a refund desk now, one after the other (a refund spike). */
  async refundSpike(deviceId: string, count: number): Promise<number> {
    let done = 0;
    for (let i = 0; i < count; i++) {
      const before = this.stats.withdrawals;
      await this.withdraw(this.clock(), deviceId);
      done += this.stats.withdrawals - before;
    }
    return done;
  }

  /** Sandbox control: one case of misuse now, after the event in progress (misuse-cases.ts). */
  async injectMisuse(kind: MisuseCaseKind) {
    const run = this.running.then(() => injectMisuse(this.services, kind, this.clock()));
    this.running = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** One terminal event. */
  async step(): Promise<void> {
    const now = this.clock();
    this.stats.events++;
    await this.refreshPool(now);
    await this.syncReturningTerminals(now);
    this.maybeGoOffline(now);
    const roll = this.rng.next();
    try {
      // Withdrawals as rare against top-ups as on the seeded nights (about 1 in 40): at 1 in 4 the
      // refund desks ran at 25 times the seed's pace, a refund spike on every sandbox night.
      if (roll < 0.6) await this.sale(now);
      else if (roll < 0.72) await this.topup(now);
      else if (roll < 0.723) await this.withdraw(now);
      else if (roll < 0.793) await this.checkIn(now);
      else await this.accessCheck(now);
    } catch (err) {
      // A terminal whose operation is refused (no balance, blocked wristband...) shows it and moves on.
      if (!(err instanceof ApiError)) throw err;
      this.stats.rejected++;
    }
  }

  private anyWristband(): { id: string; nfc: string } | undefined {
    return this.wristbands.length ? this.rng.pick(this.wristbands) : undefined;
  }

  private async refreshPool(now: Date) {
    if (this.wristbands.length > 0 && now.getTime() - this.poolLoadedAt < 30_000) return;
    this.wristbands = await this.services.db.query<{ id: string; nfc: string }>(
      `select id, nfc from wristbands where status = 'active' order by random() limit ${ACTIVE_POOL}`,
    );
    this.poolLoadedAt = now.getTime();
  }

  private maybeGoOffline(now: Date) {
    for (const terminal of this.terminals.values()) {
      if (terminal.offlineUntil || !this.rng.chance(this.options.offlineChance ?? 0.0008)) continue;
      // Minutes mostly, sometimes hours.
      const minutes = Math.min(
        this.rng.chance(0.8) ? this.rng.int(2, 30) : this.rng.int(60, 240),
        this.options.maxOfflineMinutes ?? Number.POSITIVE_INFINITY,
      );
      terminal.offlineUntil = new Date(now.getTime() + minutes * 60_000);
      this.options.log?.(`simulator: ${terminal.deviceId} offline for ${minutes} min`);
    }
  }

  /** Terminals whose connection is back sync their whole buffer now (created_at = now). */
  private async syncReturningTerminals(now: Date) {
    for (const terminal of this.terminals.values()) {
      if (!terminal.offlineUntil || terminal.offlineUntil > now) continue;
      terminal.offlineUntil = null;
      const buffer = terminal.buffer.splice(0);
      for (const event of buffer) {
        const outcome = await sendBuffered(this.services, terminal.deviceId, event, now);
        if (outcome === "offline_sale") this.stats.offlineSales++;
        if (outcome === "review_pair") this.stats.reviewPairs++;
      }
      if (buffer.length)
        this.options.log?.(`simulator: ${terminal.deviceId} synced ${buffer.length} offline records`);
    }
  }

  private offline(deviceId: string, now: Date): Terminal | null {
    const terminal = this.terminals.get(deviceId)!;
    return terminal.offlineUntil && terminal.offlineUntil > now ? terminal : null;
  }

  private async sale(
    now: Date,
    stand = this.rng.weighted(
      DEMO_STANDS,
      DEMO_STANDS.map((s) => s.weight),
    ),
  ) {
    const wristband = this.anyWristband();
    if (!wristband) return;
    const lines = cartAt(this.rng, stand);
    const paymentMethod = this.rng.chance(0.9) ? "wristband" : this.rng.chance(0.7) ? "card" : "cash";
    const terminal = this.offline(stand.deviceId, now);
    if (terminal) {
      terminal.buffer.push({ kind: "sale", wristbandId: wristband.id, lines, paymentMethod, at: now });
      return;
    }
    const origin: Origin = { occurredAt: now, createdAt: now, deviceId: stand.deviceId };
    await this.services.db.transaction((tx) =>
      this.services.writes.recordSale(
        tx,
        { wristbandId: wristband.id, lines, paymentMethod, online: true },
        origin,
      ),
    );
    this.stats.sales++;
  }

  private async topup(now: Date) {
    const wristband = this.anyWristband();
    if (!wristband) return;
    const amount = this.rng.pick(DEMO_TOPUP_PRESETS);
    const deviceId = this.rng.pick(DEMO_TOPUP_DEVICES);
    // The desk quotes first, then sends the quoted bonus, as any client must.
    const quote = await this.services.reads.quote(
      UNRESTRICTED,
      { amounts: [amount], code: wristband.nfc },
      now,
    );
    const line = quote.data[0];
    await this.services.db.transaction((tx) =>
      this.services.writes.createTopup(
        tx,
        UNRESTRICTED,
        {
          code: wristband.nfc,
          amount,
          payment_method: this.rng.pick(["card", "card", "cash", "online"] as const),
          bonus_amount: line.bonus_amount,
          bonus_rule: line.rule?.id ?? null,
        },
        { occurredAt: now, createdAt: now, deviceId },
      ),
    );
    this.stats.topups++;
  }

  private async withdraw(now: Date, desk?: string) {
    const [wristband] = await this.services.db.query<{ nfc: string; balance: number }>(
      "select nfc, balance from wristbands where status = 'active' and balance > 0 order by random() limit 1",
    );
    if (!wristband) return;
    const amount = this.rng.chance(0.7) ? wristband.balance : this.rng.int(1, wristband.balance);
    await this.services.db.transaction((tx) =>
      this.services.writes.createTopup(
        tx,
        UNRESTRICTED,
        {
          code: wristband.nfc,
          amount,
          direction: "withdraw",
          payment_method: this.rng.chance(0.6) ? "cash" : "card",
        },
        // Picked here, after the amount: the seeded sequence of events stays what it was.
        { occurredAt: now, createdAt: now, deviceId: desk ?? this.rng.pick(DEMO_REFUND_DEVICES) },
      ),
    );
    this.stats.withdrawals++;
  }

  private newWristbandCodes() {
    return { nfc: `SIM${this.rng.hex(11).toUpperCase()}`, uhf: `E28SIM${this.rng.hex(18).toUpperCase()}` };
  }

  /**
   * The gates accredit the event's own attendees: tickets that existed when the simulator started.
   * One created through the API since (an integrator trying a check-in, a browser test) stays as
   * its creator leaves it, instead of being checked in by a simulated gate at a random moment.
   */
  private async checkIn(now: Date) {
    const [ticket] = await this.services.db.query<{ code: string }>(
      "select code from tickets where status = 'active' and created_at < $1 order by random() limit 1",
      [this.startedAt],
    );
    if (!ticket) return;
    const gates = DEMO_GATES.filter((g) => g.checkIn);
    const offlineGates = gates.filter((g) => this.offline(g.deviceId, now));
    if (offlineGates.length >= 2 && this.rng.chance(0.3)) {
      // Two offline gates accredit the same ticket with different wristbands.
      for (const gate of offlineGates.slice(0, 2)) {
        this.offline(gate.deviceId, now)!.buffer.push({
          kind: "check_in",
          ticketCode: ticket.code,
          ...this.newWristbandCodes(),
          at: now,
        });
      }
      return;
    }
    const gate = this.rng.pick(gates);
    const terminal = this.offline(gate.deviceId, now);
    const codes = this.newWristbandCodes();
    if (terminal) {
      terminal.buffer.push({ kind: "check_in", ticketCode: ticket.code, ...codes, at: now });
      // Now and then the same ticket (a shared screenshot of the QR) is accredited at the other
      // entrance too, with another wristband: when this gate syncs, the pair goes to review.
      const other = gates.find((g) => g.deviceId !== gate.deviceId);
      if (!other || !this.rng.chance(0.15)) return;
      const otherTerminal = this.offline(other.deviceId, now);
      const otherCodes = this.newWristbandCodes();
      if (otherTerminal) {
        otherTerminal.buffer.push({ kind: "check_in", ticketCode: ticket.code, ...otherCodes, at: now });
        return;
      }
      await this.services.db.transaction((tx) =>
        this.services.writes.checkIn(
          tx,
          UNRESTRICTED,
          ticket.code,
          { wristband: otherCodes },
          {
            occurredAt: now,
            createdAt: now,
            deviceId: other.deviceId,
          },
        ),
      );
      this.stats.checkIns++;
      return;
    }
    await this.services.db.transaction((tx) =>
      this.services.writes.checkIn(
        tx,
        UNRESTRICTED,
        ticket.code,
        { wristband: codes },
        {
          occurredAt: now,
          createdAt: now,
          deviceId: gate.deviceId,
        },
      ),
    );
    this.stats.checkIns++;
  }

  private async accessCheck(now: Date) {
    const gate = this.rng.pick(DEMO_GATES);
    const zoneName = DEMO_ZONES.find((z) => z.key === gate.zone)?.name;
    const zone = this.services.catalog.rows.zones.find((z) => z.name === zoneName);
    if (!zone) return;
    const wristband = this.anyWristband();
    const code = this.rng.chance(0.03) || !wristband ? `UNKNOWN-${this.rng.hex(6)}` : wristband.nfc;
    await this.services.db.transaction((tx) =>
      this.services.writes.accessCheck(
        tx,
        UNRESTRICTED,
        { code, zone_id: zone.id },
        {
          occurredAt: now,
          createdAt: now,
          deviceId: gate.deviceId,
        },
      ),
    );
    this.stats.accessChecks++;
  }
}
