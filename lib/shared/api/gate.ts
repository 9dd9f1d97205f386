import { z } from "zod";

/**
 * What a screen needs to give the gate's verdict (lib/shared/gate-verdict.ts): the event's days
 * with their windows, its zone, its zones (a gate chooses the one it stands at) and the server's
 * clock, so every phone judges "today" alike whatever its own clock says. Built on zod alone, like
 * the search's answer, so the search box does not carry the whole contract.
 */

export const GateRef = z.object({ id: z.string(), name: z.string() });

export const GateDay = z.object({
  id: z.string(),
  name: z.string(),
  date: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
});

export const GateInfo = z.object({
  /** The server's clock when it answered (ISO 8601). */
  now: z.string(),
  timeZone: z.string(),
  days: z.array(GateDay),
  zones: z.array(GateRef),
});
export type GateInfo = z.infer<typeof GateInfo>;
