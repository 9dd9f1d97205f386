import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { ApiError } from "../errors";
import { requireAdmin } from "../http/admin-auth";
import type { AppEnv } from "../http/context";

/**
 * Sandbox only (registered when API_SIMULATOR=on): `POST /admin/simulator/late-sale`, behind the
 * admin token, makes a terminal sync one sale that happened earlier — `occurred_at` in the past,
 * `created_at` now — exactly as an offline terminal coming back does. The browser tests use it to
 * put a late record into a night that has already been signed off.
 *
 * Body: `{"occurred_at": ISO date-time, "device_id": string, "payment_method"?: "cash"|"card"|
 * "wristband" (default cash), "unit_price"?: cents (default 500), "quantity"?: (default 1)}`.
 * Answers 201 `{"object": "late_sale", "id"}` (the transaction id).
 */
const Body = z.object({
  occurred_at: z.iso.datetime({ offset: true }),
  device_id: z.string().min(1).max(100),
  payment_method: z.enum(["cash", "card", "wristband"]).default("cash"),
  unit_price: z.number().int().min(1).max(999_999).default(500),
  quantity: z.number().int().min(1).max(100).default(1),
});

export function registerLateSaleRoute(admin: OpenAPIHono<AppEnv>) {
  admin.post("/simulator/late-sale", requireAdmin, async (c) => {
    const parsed = Body.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiError("invalid_parameter", issue?.message ?? "Invalid body.", issue?.path.join("."));
    }
    const body = parsed.data;
    const occurredAt = new Date(body.occurred_at);
    const services = c.get("services");
    const [wristband] = await services.db.query<{ id: string }>(
      "select id from wristbands where status = 'active' order by id limit 1",
    );
    if (!wristband) throw new ApiError("wristband_not_found", "No active wristband to sell to.");
    const id = await services.db.transaction((tx) =>
      services.writes.recordSale(
        tx,
        {
          wristbandId: wristband.id,
          lines: [
            {
              product_id: "prd_late_sale",
              name: "Late sale",
              quantity: body.quantity,
              unit_price: body.unit_price,
              included_quantity: 0,
              tax_type: "VAT",
              rate: 21,
            },
          ],
          paymentMethod: body.payment_method,
          online: false,
        },
        { occurredAt, createdAt: services.clock(), deviceId: body.device_id },
      ),
    );
    return c.json({ object: "late_sale", id }, 201);
  });
}
