import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/db/db";
import { listenPush, notifyPush, type PushListener } from "@/lib/server/store/push-channel";
import { isPushTopic, type PushTopic } from "@/lib/shared/api/push";

/**
 * The change bus of one dashboard instance: the sync worker, the alerts and the night sign-off say
 * what changed (`emit`), the push streams of this instance's browsers hear it (`subscribe`). Each
 * event gets an id `<instance epoch>.<sequence>` and is kept in a bounded ring, so a browser that
 * reconnects with its Last-Event-ID gets exactly what it missed (`since`), or a reset when the id
 * is another instance's, older than the ring, or unknown.
 *
 * On PostgreSQL the emitting instance also `NOTIFY`s the store's channel, and every instance that
 * `listen`s forwards what other instances emitted to its own streams (its own echo is skipped).
 */

export interface PushEvent {
  id: string;
  seq: number;
  topics: PushTopic[];
  /** When the emitting instance saw the change (ms since epoch). */
  at: number;
}

/** What a stream hears: an event, or "reset" (refetch everything: changes may have been missed). */
export type PushSignal = PushEvent | "reset";

export interface PushBusOptions {
  /** Events kept for replay (default 500). */
  ringSize?: number;
  now?: () => number;
  /** The store: on PostgreSQL each emit is NOTIFYed to the other instances too. */
  db?: Pick<Db, "kind" | "query">;
  log?: Pick<Console, "warn">;
}

export class PushBus {
  readonly epoch = randomBytes(6).toString("hex");
  private seq = 0;
  private readonly ring: PushEvent[] = [];
  private readonly listeners = new Set<(signal: PushSignal) => void>();
  private readonly ringSize: number;
  private readonly now: () => number;
  private listener: PushListener | null = null;
  private readonly hearing: (() => void)[] = [];
  /** NOTIFYs that failed (the other instances' browsers then wait for their poll). */
  notifyFailures = 0;

  constructor(private readonly options: PushBusOptions = {}) {
    this.ringSize = options.ringSize ?? 500;
    this.now = options.now ?? Date.now;
  }

  /** The id of the newest event (`<epoch>.0` before the first). */
  get lastId(): string {
    return `${this.epoch}.${this.seq}`;
  }

  /** Streams subscribed right now. */
  get subscribers(): number {
    return this.listeners.size;
  }

  /** Whether this instance hears the other instances (PostgreSQL, listening and connected). */
  get hearsOthers(): boolean {
    return this.listener?.connected ?? false;
  }

  /** Resolves once this instance hears the others (at once if it does): after `listen`, its LISTEN is up. */
  whenHearingOthers(): Promise<void> {
    if (this.hearsOthers) return Promise.resolve();
    return new Promise((resolve) => this.hearing.push(resolve));
  }

  /** Says that these topics changed: this instance's streams at once, the others' through NOTIFY. */
  emit(...topics: PushTopic[]): void {
    if (topics.length === 0) return;
    const at = this.now();
    this.deliver(topics, at);
    const db = this.options.db;
    if (db?.kind === "postgres")
      notifyPush(db, JSON.stringify({ from: this.epoch, topics, at })).catch((err) => {
        this.notifyFailures++;
        this.options.log?.warn("[push] NOTIFY failed", (err as Error).message);
      });
  }

  subscribe(listener: (signal: PushSignal) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * The events after `lastEventId`, oldest first; null when they cannot be told (another instance's
   * or a former process's id, one older than the ring, garbage): the stream then sends a reset.
   */
  since(lastEventId: string): PushEvent[] | null {
    const match = lastEventId.match(/^([0-9a-f]+)\.(\d+)$/);
    if (!match || match[1] !== this.epoch) return null;
    const seq = Number(match[2]);
    if (seq > this.seq) return null;
    if (seq === this.seq) return [];
    const oldest = this.ring[0]?.seq;
    if (oldest === undefined || seq < oldest - 1) return null;
    return this.ring.filter((e) => e.seq > seq);
  }

  /**
   * Hears the other instances on PostgreSQL (idempotent): a dedicated LISTEN connection that
   * reconnects by itself; after a reconnect the streams get a reset (notifications may be lost).
   */
  listen(databaseUrl: string, retryMs?: number): void {
    if (this.listener || this.options.db?.kind !== "postgres") return;
    this.listener = listenPush({
      databaseUrl,
      retryMs,
      log: this.options.log,
      onMessage: (payload) => this.heard(payload),
      onReconnect: () => this.reset(),
      onConnect: () => {
        for (const resolve of this.hearing.splice(0)) resolve();
      },
    });
  }

  /** The LISTEN connection's backend pid (tests end it to prove the reconnect). */
  get listenerPid(): number | null {
    return this.listener?.backendPid ?? null;
  }

  /** Tells every stream to refetch everything. */
  reset(): void {
    for (const listener of [...this.listeners]) listener("reset");
  }

  async close(): Promise<void> {
    await this.listener?.close();
    this.listener = null;
  }

  private heard(payload: string): void {
    let message: { from?: unknown; topics?: unknown; at?: unknown };
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    if (message.from === this.epoch || !Array.isArray(message.topics)) return;
    const topics = message.topics.filter(isPushTopic);
    if (topics.length) this.deliver(topics, typeof message.at === "number" ? message.at : this.now());
  }

  private deliver(topics: PushTopic[], at: number): void {
    const event: PushEvent = { id: "", seq: ++this.seq, topics: [...new Set(topics)], at };
    event.id = `${this.epoch}.${event.seq}`;
    this.ring.push(event);
    if (this.ring.length > this.ringSize) this.ring.shift();
    for (const listener of [...this.listeners]) listener(event);
  }
}

// One bus per store connection (a process has one; a test may open two "instances"), kept on
// globalThis so that module re-evaluation (dev reloads, Next's bundles) reuses it.
const holder = globalThis as typeof globalThis & { __pushBuses?: WeakMap<object, PushBus> };

/** The bus of this store connection: `pushBus(db).emit("sales")` at every site that changes the mirror. */
export function pushBus(db: Pick<Db, "kind" | "query">): PushBus {
  holder.__pushBuses ??= new WeakMap();
  let bus = holder.__pushBuses.get(db);
  if (!bus) {
    bus = new PushBus({ db, log: console });
    holder.__pushBuses.set(db, bus);
  }
  return bus;
}
