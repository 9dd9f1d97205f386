import { handle } from "@/lib/server/http/handle";
import { allEndpoints, endpoints } from "@/lib/shared/api/endpoints";
import { openApiDocument } from "@/lib/shared/api/endpoints/openapi";

export const GET = handle(endpoints.docs.openapi, () => openApiDocument(allEndpoints));
