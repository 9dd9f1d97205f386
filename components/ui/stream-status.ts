"use client";

import { createContext, useContext } from "react";

/**
 * Whether the browser's push stream (server-sent events) is connected: the live provider sets it,
 * panels read it to say why their figures may be old ("stream down"), the wall to show "reconnecting".
 */
export type StreamState = "connecting" | "open" | "reconnecting" | "off";

export interface StreamStatus {
  state: StreamState;
  /** When the last event or heartbeat arrived (ms since epoch), null before the first. */
  lastEventAt: number | null;
}

export const StreamStatusContext = createContext<StreamStatus>({ state: "off", lastEventAt: null });

export function useStreamStatus(): StreamStatus {
  return useContext(StreamStatusContext);
}
