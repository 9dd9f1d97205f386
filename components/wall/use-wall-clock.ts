"use client";

import { useEffect, useState } from "react";
import { useConsoleNowReader } from "@/components/ui/console-clock";

/**
 * For the wall: the time now, ticking each second (the clock and the figures' age), whether the
 * browser is online, and the screen's height (the chart's labels grow with it). One timer and two
 * listeners, removed on unmount: a wall runs for days.
 */
export function useWallClock() {
  const read = useConsoleNowReader();
  const [now, setNow] = useState(read);
  const [online, setOnline] = useState(true);
  const [height, setHeight] = useState(1080);
  useEffect(() => {
    const tick = setInterval(() => setNow(read()), 1000);
    const sync = () => {
      setOnline(navigator.onLine);
      setHeight(window.innerHeight);
    };
    sync();
    window.addEventListener("online", sync);
    window.addEventListener("offline", sync);
    window.addEventListener("resize", sync);
    return () => {
      clearInterval(tick);
      window.removeEventListener("online", sync);
      window.removeEventListener("offline", sync);
      window.removeEventListener("resize", sync);
    };
  }, [read]);
  return { now, online, height };
}
