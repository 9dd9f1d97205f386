import {
  AcknowledgeRequest,
  Alert,
  AlertCount,
  AlertsQuery,
  AlertsView,
  StationChange,
  TerminalDetail,
  TerminalsView,
} from "../attention";
import { AlertSegment, DeviceSegment } from "../params";
import { endpoint } from "./define";

/** The terminals the sync worker watches. */
export const terminals = {
  list: endpoint({
    name: "terminals.list",
    summary: "Every terminal's state as the sync worker last computed it, with today's figures.",
    method: "GET",
    path: "/api/terminals",
    permission: "terminals.view",
    answer: TerminalsView,
    refresh: "live",
    pushedBy: ["cycle", "sales", "topups", "scans"],
  }),
  detail: endpoint({
    name: "terminals.detail",
    summary: "One terminal: its state and its latest records.",
    method: "GET",
    path: "/api/terminals/{device}",
    permission: "terminals.view",
    params: DeviceSegment,
    answer: TerminalDetail,
    refresh: "live",
    pushedBy: ["cycle", "sales", "topups", "scans"],
  }),
  station: endpoint({
    name: "terminals.station",
    summary: "A manager sets the terminal's station (null: back to the one its device id suggests).",
    method: "PUT",
    path: "/api/terminals/{device}",
    permission: "terminals.manage",
    params: DeviceSegment,
    body: StationChange,
    answer: TerminalDetail,
    refresh: "once",
  }),
};

/** Alerts of the kinds each role sees. */
export const alerts = {
  list: endpoint({
    name: "alerts.list",
    summary:
      "The alerts of the kinds this role sees: open ones first, then the history (the newest 200); `alert` reads one.",
    method: "GET",
    path: "/api/alerts",
    permission: "alerts.view",
    query: AlertsQuery,
    answer: AlertsView,
    refresh: "live",
    pushedBy: ["alerts"],
  }),
  count: endpoint({
    name: "alerts.count",
    summary: "The header's bell: open alerts of the kinds this role sees, and how many nobody acknowledged.",
    method: "GET",
    path: "/api/alerts/count",
    permission: "alerts.view",
    answer: AlertCount,
    refresh: "live",
    pushedBy: ["alerts"],
  }),
  acknowledge: endpoint({
    name: "alerts.acknowledge",
    summary: "Acknowledges an alert: who, when and a comment stay with it (and in the audit log).",
    method: "POST",
    path: "/api/alerts/{id}/acknowledge",
    permission: "alerts.acknowledge",
    params: AlertSegment,
    body: AcknowledgeRequest,
    answer: Alert,
    refresh: "once",
  }),
};
