import { ApiError } from "../errors";
import type { Services } from "../http/context";
import { type DemoStand, productById } from "../seed/demo-catalog";
import type { Random } from "../seed/random";
import type { Origin, SaleLine } from "../services/write-service";

/** A simulated terminal: while offline it keeps working into its buffer, sent when it is back. */
export interface Terminal {
  deviceId: string;
  offlineUntil: Date | null;
  buffer: Buffered[];
}

export type Buffered =
  | {
      kind: "sale";
      wristbandId: string;
      lines: SaleLine[];
      paymentMethod: "wristband" | "card" | "cash";
      at: Date;
    }
  | { kind: "check_in"; ticketCode: string; nfc: string; uhf: string; at: Date };

/**
 * Sends one buffered record of `deviceId` as it reaches the server `now` (`occurred_at` kept), in its
 * own transaction. A check-in the service refuses is dropped, as the terminal would show and move on.
 */
export async function sendBuffered(
  services: Services,
  deviceId: string,
  event: Buffered,
  now: Date,
): Promise<"offline_sale" | "check_in" | "review_pair" | "rejected"> {
  const origin: Origin = { occurredAt: event.at, createdAt: now, deviceId };
  return services.db.transaction(async (tx) => {
    if (event.kind === "sale") {
      const sale = { wristbandId: event.wristbandId, lines: event.lines, paymentMethod: event.paymentMethod };
      await services.writes.recordSale(tx, { ...sale, online: false }, origin);
      return "offline_sale" as const;
    }
    const result = await services.writes
      .syncOfflineCheckIn(tx, event.ticketCode, { nfc: event.nfc, uhf: event.uhf }, origin)
      .catch((err) => {
        if (err instanceof ApiError) return "rejected" as const;
        throw err;
      });
    return result === "pending_review" ? "review_pair" : result === "rejected" ? "rejected" : "check_in";
  });
}

/** A cart of one to three picks from the stand's products, by their weights (a pick may be two). */
export function cartAt(rng: Random, stand: DemoStand): SaleLine[] {
  const count = rng.int(1, 3);
  const lines = new Map<string, SaleLine>();
  for (let i = 0; i < count; i++) {
    const pick = rng.weighted(
      stand.products,
      stand.products.map((p) => p.weight),
    );
    const product = productById.get(pick.productId)!;
    const line = lines.get(product.id) ?? {
      product_id: product.id,
      name: product.name,
      quantity: 0,
      unit_price: product.unitPrice,
      included_quantity: 0,
      tax_type: product.taxType,
      rate: product.taxRate,
    };
    line.quantity += rng.chance(0.2) ? 2 : 1;
    lines.set(product.id, line);
  }
  return [...lines.values()];
}
