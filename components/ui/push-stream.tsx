"use client";

import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { urlOf } from "@/lib/shared/api/call";
import { allEndpoints, endpoints } from "@/lib/shared/api/endpoints";
import { isPushTopic, PUSH_EVENT } from "@/lib/shared/api/push";
import { LIVE_REFRESH_MS } from "@/lib/shared/refresh";
import { KeyThrottle, liveNames, topicTargets } from "./push-refresh";
import { type StreamStatus, StreamStatusContext } from "./stream-status";

/** A query is refetched at most this often because of pushed events (the tail may bring 20/s). */
const REFETCH_AT_MOST_MS = 1000;

/**
 * The browser's one push stream (GET /api/stream, EventSource): each `change` refetches the reads
 * of the endpoints whose declarations list its topics (throttled), a `reset` every live read.
 * EventSource reconnects by itself (the server's `retry:`) and resumes with Last-Event-ID; a stream
 * the server refuses (signed out) is tried again after a refresh interval. The 30 s poll stays the
 * floor. The stream's state goes into StreamStatusContext for the panels and the wall.
 */
export function PushStreamProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [status, setStatus] = useState<StreamStatus>({ state: "connecting", lastEventAt: null });

  useEffect(() => {
    if (typeof EventSource === "undefined") {
      setStatus({ state: "off", lastEventAt: null });
      return;
    }
    const targets = topicTargets(allEndpoints);
    const everyLive = liveNames(allEndpoints);
    const throttle = new KeyThrottle(
      (name) => void client.invalidateQueries({ queryKey: [name] }),
      REFETCH_AT_MOST_MS,
    );
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const heard = () => setStatus({ state: "open", lastEventAt: Date.now() });

    const connect = () => {
      const stream = new EventSource(urlOf(endpoints.push.stream, {}));
      source = stream;
      stream.onopen = () => setStatus((s) => ({ ...s, state: "open" }));
      stream.addEventListener(PUSH_EVENT.heartbeat, heard);
      stream.addEventListener(PUSH_EVENT.change, (event) => {
        heard();
        let topics: unknown[] = [];
        try {
          topics = (JSON.parse((event as MessageEvent<string>).data) as { topics?: unknown[] }).topics ?? [];
        } catch {
          return;
        }
        const names = new Set(topics.filter(isPushTopic).flatMap((t) => targets.get(t) ?? []));
        for (const name of names) throttle.request(name);
      });
      stream.addEventListener(PUSH_EVENT.reset, () => {
        heard();
        for (const name of everyLive) throttle.request(name);
      });
      stream.onerror = () => {
        if (stream.readyState === EventSource.CLOSED) {
          // Refused (signed out, a proxy's error page): the polls go on; try again later.
          stream.close();
          setStatus((s) => ({ ...s, state: "off" }));
          retry = setTimeout(connect, LIVE_REFRESH_MS);
        } else setStatus((s) => ({ ...s, state: "reconnecting" }));
      };
    };
    connect();
    return () => {
      source?.close();
      clearTimeout(retry);
      throttle.dispose();
    };
  }, [client]);

  return <StreamStatusContext.Provider value={status}>{children}</StreamStatusContext.Provider>;
}
