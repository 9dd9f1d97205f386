import "server-only";
import type { RequestOptions, Sleep, UpstreamClient } from "@/lib/server/upstream/client";
import type { ResourceRun, SyncLogger } from "./context";

export interface QuotaPacerOptions {
  client: UpstreamClient;
  now: () => Date;
  sleep: Sleep;
  log: SyncLogger;
  /** Share of the read quota of each window never spent. */
  reserveFraction: number;
  /** The signal that interrupts a pause (read at each request: the worker renews it per run). */
  signal: () => AbortSignal;
  /** Called when a pause starts (the worker then beats, so the status shows the pause). */
  onPause: () => Promise<void>;
}

/**
 * Paces the worker's requests: it never spends the last `reserveFraction` of the read quota's window
 * (what the interactive lookups use), pausing until the window resets; and counts every attempt.
 */
export class QuotaPacer {
  /** While paused: when the pause ends. */
  pausedUntil: Date | null = null;
  /** Attempts since the cycle started. */
  cycleRequests = 0;

  constructor(private readonly options: QuotaPacerOptions) {}

  /** The share of each read window never spent (the lookups'). */
  get reserveFraction(): number {
    return this.options.reserveFraction;
  }

  /** Request options that hold every attempt back to keep the reserve, and count it in `run`. */
  request(run: ResourceRun): RequestOptions {
    return {
      signal: this.options.signal(),
      beforeAttempt: async () => {
        await this.keepReserve();
        run.requests++;
        this.cycleRequests++;
      },
    };
  }

  /**
   * Whether `requests` more can go out now and still leave the reserve plus `extra` requests of the
   * window (no pause). An unknown or reset window has room.
   */
  hasRoom(requests: number, extra = 0): boolean {
    const quota = this.options.client.rateLimit("read");
    if (!quota || quota.resetAt.getTime() <= this.options.now().getTime()) return true;
    return quota.remaining - requests >= Math.ceil(quota.limit * this.options.reserveFraction) + extra;
  }

  /** When the current read window resets (null: unknown or already reset). */
  windowResetAt(): Date | null {
    const quota = this.options.client.rateLimit("read");
    return quota && quota.resetAt.getTime() > this.options.now().getTime() ? quota.resetAt : null;
  }

  /**
   * Waits while one more request would dip into the reserved share of the current read window.
   * The state is the client's last seen `x-ratelimit-*`; once its window has reset it no longer binds.
   */
  private async keepReserve(): Promise<void> {
    const { client, log, reserveFraction } = this.options;
    for (;;) {
      const signal = this.options.signal();
      signal.throwIfAborted();
      const quota = client.rateLimit("read");
      const now = this.options.now().getTime();
      if (!quota || quota.resetAt.getTime() <= now) return;
      const reserve = Math.ceil(quota.limit * reserveFraction);
      if (quota.remaining - 1 >= reserve) return;
      const until = new Date(quota.resetAt.getTime() + 50);
      this.pausedUntil = until;
      log.info(
        `[sync] read quota at its reserve (${quota.remaining}/${quota.limit} left); pausing until ${until.toISOString()}`,
      );
      await this.options.onPause().catch(() => undefined);
      await this.options.sleep(until.getTime() - now, signal);
      this.pausedUntil = null;
    }
  }
}
