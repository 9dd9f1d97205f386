import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { eventCurrency } from "@/lib/server/staff/common";
import { reviewPairs } from "@/lib/server/staff/review";

/** The review queue from the mirror (the sync worker refreshes it every cycle). */
export const GET = route("review.view", async ({ dashboard }) => {
  return NextResponse.json({
    pairs: await reviewPairs(dashboard.db),
    currency: await eventCurrency(dashboard.db),
    refreshedAt: new Date().toISOString(),
  });
});
