"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";

/** Every live view refreshes every 30 s, and not at all while its tab is in the background. */
export const LIVE_REFRESH_MS = 30_000;

export function Providers({ children }: { children: ReactNode }) {
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
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
