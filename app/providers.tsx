"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { ConsoleClockProvider } from "@/components/ui/console-clock";
import { LIVE_REFRESH_MS } from "@/lib/shared/refresh";

export function Providers({ children, clockOffsetMs }: { children: ReactNode; clockOffsetMs: number }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            refetchInterval: LIVE_REFRESH_MS,
            refetchIntervalInBackground: false,
            refetchOnWindowFocus: true,
            staleTime: 10_000,
            retry: 1,
          },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <ConsoleClockProvider offsetMs={clockOffsetMs}>{children}</ConsoleClockProvider>
    </QueryClientProvider>
  );
}
