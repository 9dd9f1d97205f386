import { handle } from "@/lib/server/http/handle";
import { pushStream } from "@/lib/server/http/push-stream";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.push.stream, ({ request, dashboard }) => pushStream(dashboard, request));
