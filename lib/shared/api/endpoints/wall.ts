import {
  IssueWallBody,
  ThemeChoice,
  ThemeChosen,
  WallConnectBody,
  WallConnected,
  WallHeartbeat,
  WallIdSegment,
  WallIssued,
  WallRevoked,
  WallsView,
} from "../wall";
import { endpoint } from "./define";

/** Walls: issued and revoked by managers (the users screen), opened and polled by the TV. */
export const wall = {
  list: endpoint({
    name: "wall.list",
    summary:
      "Every wall with who issued it, when it was last on screen and whether it was revoked (managers).",
    method: "GET",
    path: "/api/walls",
    permission: "users.manage",
    answer: WallsView,
    refresh: "live",
    // Changed only by this screen's own writes (a wall issued or revoked), or the wall's renewal poll.
    pushedBy: [],
  }),
  issue: endpoint({
    name: "wall.issue",
    summary: "Issues a wall token: its link is answered once (only the token's hash is kept); audited.",
    method: "POST",
    path: "/api/walls",
    permission: "users.manage",
    body: IssueWallBody,
    answer: WallIssued,
    status: 201,
    refresh: "once",
  }),
  revoke: endpoint({
    name: "wall.revoke",
    summary: "Revokes a wall: its session ends at once, on every instance; audited.",
    method: "POST",
    path: "/api/walls/{id}/revoke",
    permission: "users.manage",
    params: WallIdSegment,
    answer: WallRevoked,
    refresh: "once",
  }),
  connect: endpoint({
    name: "wall.connect",
    summary: "Opening a wall's link: trades its token for this browser's wall session cookie.",
    method: "POST",
    path: "/api/wall/connect",
    permission: "public",
    body: WallConnectBody,
    answer: WallConnected,
    refresh: "once",
  }),
  session: endpoint({
    name: "wall.session",
    summary: "The wall's poll: notes it is on screen and renews its cookie once a day.",
    method: "GET",
    path: "/api/wall/session",
    permission: "wall.view",
    answer: WallHeartbeat,
    refresh: "live",
    // Changed only by this screen's own writes (a wall issued or revoked), or the wall's renewal poll.
    pushedBy: [],
  }),
};

/** The console's colour theme (the switcher in the navigation). */
export const theme = {
  choose: endpoint({
    name: "theme.choose",
    summary: "The theme switcher: system, light or dark; kept with the account and in a cookie.",
    method: "POST",
    path: "/api/theme",
    permission: "signed-in",
    body: ThemeChoice,
    answer: ThemeChosen,
    refresh: "once",
  }),
};
