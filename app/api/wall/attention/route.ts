import { handle } from "@/lib/server/http/handle";
import { wallAttention } from "@/lib/server/wall/attention";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.wall.attention, ({ dashboard }) => wallAttention(dashboard.db));
