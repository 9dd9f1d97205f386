import "server-only";
import { PUSH_EVENT } from "@/lib/shared/api/push";
import type { PushBus, PushEvent, PushSignal } from "./bus";

/**
 * One browser's push stream (server-sent events) on a bus. It starts with a `retry:` hint and the
 * current id (so a reconnect can resume), replays what a reconnect with `Last-Event-ID` missed (or
 * sends `reset`), then forwards every event. Every `heartbeatMs` a comment and a `heartbeat` event
 * keep proxies from timing it out and let the browser see the stream is alive; at each heartbeat
 * the session is checked again, and the stream ends once it is signed out or revoked. It ends on
 * abort (the browser left) and unsubscribes: no listener outlives its stream.
 */

export interface EventStreamOptions {
  bus: PushBus;
  /** The browser's `Last-Event-ID` header (a reconnect), or null. */
  lastEventId: string | null;
  heartbeatMs: number;
  /** The reconnect delay the browser is told (`retry:`). */
  retryMs: number;
  /** Whether the stream's session is still live (checked at every heartbeat). */
  stillSignedIn: () => Promise<boolean>;
  /** The request's signal: the browser went away. */
  signal: AbortSignal;
  /** The process's clock in ms since the epoch (the heartbeat's data). */
  now: () => number;
}

/** A stream with more queued than this is a browser that stopped reading: it is ended. */
const MAX_QUEUED_CHUNKS = 256;

const encoder = new TextEncoder();

export const STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform: a compressing proxy (or Next's gzip) must not buffer the stream.
  "cache-control": "no-cache, no-transform",
  // nginx: do not buffer this response.
  "x-accel-buffering": "no",
  connection: "keep-alive",
} as const;

function changeFrame(event: PushEvent): string {
  return `id: ${event.id}\nevent: ${PUSH_EVENT.change}\ndata: ${JSON.stringify({ topics: event.topics, at: event.at })}\n\n`;
}

export function eventStream(options: EventStreamOptions): Response {
  const { bus, signal, now } = options;
  let cleanup = () => {};

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false;
      let checking = false;
      const end = () => {
        if (ended) return;
        ended = true;
        cleanup();
        try {
          controller.close();
        } catch {
          // Already closed or cancelled.
        }
      };
      const write = (text: string) => {
        if (ended) return;
        if ((controller.desiredSize ?? 0) < -MAX_QUEUED_CHUNKS) return end();
        controller.enqueue(encoder.encode(text));
      };
      const heartbeat = () => `: heartbeat\nevent: ${PUSH_EVENT.heartbeat}\ndata: ${now()}\n\n`;
      const reset = () => `id: ${bus.lastId}\nevent: ${PUSH_EVENT.reset}\ndata: {}\n\n`;

      // Subscribed before the replay is read: nothing falls between the two (one synchronous turn).
      const unsubscribe = bus.subscribe((s: PushSignal) => write(s === "reset" ? reset() : changeFrame(s)));
      const missed = options.lastEventId === null ? [] : bus.since(options.lastEventId);
      write(`retry: ${options.retryMs}\n`);
      if (missed === null) write(reset());
      else {
        // The current id first, so that a reconnect resumes from here even before the first change.
        if (missed.length === 0) write(`id: ${bus.lastId}\n`);
        for (const event of missed) write(changeFrame(event));
      }
      write(heartbeat());

      const timer = setInterval(async () => {
        if (checking || ended) return;
        checking = true;
        try {
          if (!(await options.stillSignedIn())) return end();
          write(heartbeat());
        } catch {
          end();
        } finally {
          checking = false;
        }
      }, options.heartbeatMs);
      const onAbort = () => end();
      signal.addEventListener("abort", onAbort, { once: true });
      cleanup = () => {
        clearInterval(timer);
        unsubscribe();
        signal.removeEventListener("abort", onAbort);
      };
      if (signal.aborted) end();
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, { status: 200, headers: STREAM_HEADERS });
}
