import { z } from "zod";
import { themes } from "../theme";
import { typedText } from "./params";

/** Walls (a TV showing the right-now figures, its own kind of session) and the console's theme. */

export const WallView = z.object({
  id: z.string(),
  name: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  /** When the wall last polled (at most a minute off), null before it was first opened. */
  last_seen_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  revoked_by: z.string().nullable(),
});
export type WallView = z.infer<typeof WallView>;

/** GET /api/walls */
export const WallsView = z.object({ walls: z.array(WallView), timeZone: z.string() });
export type WallsView = z.infer<typeof WallsView>;

/** POST /api/walls */
export const IssueWallBody = z.object({
  name: typedText({ min: 1, max: 60, tooShort: "give the wall a name (where it hangs)." }),
});

/**
 * The wall just issued, with the path to open on the TV: shown once, never stored (only its hash is).
 * The token rides in the #fragment, so no server or proxy log ever holds it.
 */
export const WallIssued = z.object({ wall: WallView, connect_path: z.string() });
export type WallIssued = z.infer<typeof WallIssued>;

export const WallIdSegment = z.object({ id: z.string().regex(/^[a-f0-9]{24}$/, "not a wall id.") });

/** POST /api/walls/{id}/revoke: the wall after, and whether this call revoked it. */
export const WallRevoked = z.object({ wall: WallView, changed: z.boolean() });

/** POST /api/wall/connect */
export const WallConnectBody = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "not a wall token."),
});
export const WallConnected = z.object({ name: z.string() });

/** GET /api/wall/session: the wall's poll (renews its cookie); `wall` is null for a user looking at it. */
export const WallHeartbeat = z.object({ wall: z.string().nullable(), renewed: z.boolean(), now: z.string() });

/** POST /api/theme */
export const ThemeChoice = z.object({ theme: z.enum(themes) });
export const ThemeChosen = z.object({ theme: z.enum(themes), saved_with_account: z.boolean() });
