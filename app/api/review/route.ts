import { handle } from "@/lib/server/http/handle";
import { reviewQueue } from "@/lib/server/review/review";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.review.queue, ({ dashboard }) => reviewQueue(dashboard));
