import { endpoint } from "./define";

/** The push stream: what changed in the mirror, as it happens (server-sent events). */
export const push = {
  stream: endpoint({
    name: "push.stream",
    summary:
      "Server-sent events: `change` (the topics whose data changed: sales, topups, scans, cycle, alerts, night, sync), `reset` (refetch everything) and a `heartbeat` every ~15 s; `Last-Event-ID` resumes.",
    method: "GET",
    path: "/api/stream",
    permission: "signed-in",
    answer: "event-stream",
    refresh: "once",
  }),
};
