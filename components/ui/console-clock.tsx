"use client";

import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from "react";

/**
 * The console's clock in the browser: the browser's own, moved by the offset the server gave the
 * page (0 but in a sandbox started at a chosen time, lib/contract/clock.ts), so that ages and the
 * wall's time read the same instant as the figures.
 */
const OffsetContext = createContext(0);

export function ConsoleClockProvider({ offsetMs, children }: { offsetMs: number; children: ReactNode }) {
  return <OffsetContext.Provider value={offsetMs}>{children}</OffsetContext.Provider>;
}

/** How far the console's clock is from the browser's, in ms (to read a browser instant in console time). */
export function useConsoleClockOffset(): number {
  return useContext(OffsetContext);
}

/** The console's now in ms, read once. */
export function useConsoleNowReader(): () => number {
  const offset = useContext(OffsetContext);
  return useCallback(() => Date.now() + offset, [offset]);
}

/** The console's now in ms, re-read every second. */
export function useNow(): number {
  const read = useConsoleNowReader();
  const [now, setNow] = useState(read);
  useEffect(() => {
    const timer = setInterval(() => setNow(read()), 1000);
    return () => clearInterval(timer);
  }, [read]);
  return now;
}
