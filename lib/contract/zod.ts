import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

/**
 * zod with `.openapi()` metadata, as @hono/zod-openapi uses it (the same zod instance, extended
 * once). Imported from here rather than from @hono/zod-openapi so that the browser, which parses
 * the console's answers with these schemas too, does not bundle Hono.
 */
extendZodWithOpenApi(z);

export { z };
