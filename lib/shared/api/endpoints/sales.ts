import { DayQuery, TopupsQuery } from "../params";
import { RightNowReport } from "../right-now";
import { OverviewReport, SalesDayReport, ScansDayReport, TopupsDayReport } from "../sales";
import { endpoint } from "./define";

/** The live screens, from the mirror's aggregates, and their CSV exports. */
export const live = {
  overview: endpoint({
    name: "live.overview",
    summary:
      "The overview: the current event day's totals, hours, flows and late arrivals, from the aggregates.",
    method: "GET",
    path: "/api/live/overview",
    permission: "overview.view",
    answer: OverviewReport,
    refresh: "live",
  }),
  rightNow: endpoint({
    name: "live.right_now",
    summary:
      "Right now: the last 15 minutes by occurred_at (sales per minute against the previous day's same clock window, entries by zone, paid top-ups and promo credit apart, top products), terminals not live and the most severe open alerts.",
    method: "GET",
    path: "/api/live/right-now",
    permission: "overview.view",
    answer: RightNowReport,
    refresh: "live",
  }),
  sales: endpoint({
    name: "live.sales",
    summary: "Sales of one event day (`day_id`, default the current day); `cursor` pages the latest sales.",
    method: "GET",
    path: "/api/live/sales",
    permission: "sales.view",
    query: DayQuery,
    answer: SalesDayReport,
    refresh: "live",
  }),
  salesExport: endpoint({
    name: "live.sales_export",
    summary: "Every sale of one event day as CSV (all statuses; the screen's totals count completed ones).",
    method: "GET",
    path: "/api/live/sales/export",
    permission: "sales.view",
    query: DayQuery,
    answer: "csv",
    refresh: "once",
  }),
  topups: endpoint({
    name: "live.topups",
    summary: "Top-up flows of one event day; `direction` filters the list, `cursor` pages it.",
    method: "GET",
    path: "/api/live/topups",
    permission: "topups.view",
    query: TopupsQuery,
    answer: TopupsDayReport,
    refresh: "live",
  }),
  topupsExport: endpoint({
    name: "live.topups_export",
    summary: "Every top-up and withdrawal of one event day as CSV (`direction` filters).",
    method: "GET",
    path: "/api/live/topups/export",
    permission: "topups.view",
    query: TopupsQuery,
    answer: "csv",
    refresh: "once",
  }),
  scans: endpoint({
    name: "live.scans",
    summary: "Door scans of one event day: per zone and hour, allowed against denied, the latest denials.",
    method: "GET",
    path: "/api/live/scans",
    permission: "scans.view",
    query: DayQuery,
    answer: ScansDayReport,
    refresh: "live",
  }),
};
