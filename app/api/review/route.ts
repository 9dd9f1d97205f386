import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { reviewQueue } from "@/lib/server/review/review";
import { ReviewView } from "@/lib/shared/api/staff";

/** The review queue from the mirror (the sync worker refreshes it every cycle). */
export const GET = route("review.view", async ({ dashboard }) =>
  answer(ReviewView, await reviewQueue(dashboard)),
);
