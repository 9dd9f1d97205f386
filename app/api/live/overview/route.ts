import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { overviewReport } from "@/lib/server/live/queries";

/** The overview: the current event day's totals, hours, flows and late arrivals, from the aggregates. */
export const GET = route("overview.view", async ({ dashboard }) =>
  NextResponse.json(await overviewReport(dashboard.db)),
);
