import { ApiError } from "../errors";
import { newId } from "../ids";
import type { Queryable } from "../store/db";
import { writeStore } from "../store/write-store";
import type { Catalog } from "./catalog-service";
import type { Origin } from "./write-common";

export interface SaleLine {
  product_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  included_quantity: number;
  tax_type: string;
  rate: number;
}

/** Sales recorded by the terminals. */
export class SaleWrites {
  constructor(private readonly catalog: Catalog) {}

  /**
   * A sale from a terminal (terminals sync through their own channel, not the public API).
   * Wristband payments spend promo_balance first; an online terminal refuses a sale the balances
   * do not cover, an offline one cannot know and may leave `balance` negative.
   */
  async recordSale(
    tx: Queryable,
    sale: {
      wristbandId: string;
      lines: SaleLine[];
      paymentMethod: "wristband" | "card" | "cash";
      online: boolean;
      status?: "completed" | "pending" | "cancelled";
    },
    origin: Origin,
  ): Promise<string> {
    const wristband = await writeStore.lockWristbandById(tx, sale.wristbandId);
    if (!wristband) throw new ApiError("wristband_not_found", "No wristband with this id.");
    if (sale.online && wristband.status !== "active") {
      throw new ApiError("wristband_not_active", `The wristband is ${wristband.status}.`);
    }
    const items = sale.lines.map((l) => ({
      product_id: l.product_id,
      name: l.name,
      quantity: l.quantity,
      unit_price: l.unit_price,
      charged_amount: (l.quantity - l.included_quantity) * l.unit_price,
      included_quantity: l.included_quantity,
    }));
    const taxes = new Map<string, { tax_type: string; rate: number; base: number; amount: number }>();
    sale.lines.forEach((l, i) => {
      const gross = items[i].charged_amount;
      const key = `${l.tax_type}:${l.rate}`;
      const line = taxes.get(key) ?? { tax_type: l.tax_type, rate: l.rate, base: 0, amount: 0 };
      line.base += gross;
      taxes.set(key, line);
    });
    const taxBreakdown = [...taxes.values()].map((t) => {
      const base = Math.round((t.base * 100) / (100 + t.rate));
      return { tax_type: t.tax_type, rate: t.rate, base, amount: t.base - base };
    });
    const total = items.reduce((s, i) => s + i.charged_amount, 0);
    const status = sale.status ?? "completed";
    let promoSpent = 0;
    let balanceSpent = 0;
    if (sale.paymentMethod === "wristband" && status === "completed") {
      if (sale.online && wristband.balance + wristband.promo_balance < total) {
        throw new ApiError("insufficient_balance", "The wristband's balances do not cover this sale.");
      }
      promoSpent = Math.min(Math.max(wristband.promo_balance, 0), total);
      balanceSpent = total - promoSpent;
      if (promoSpent)
        await writeStore.addToBalance(tx, wristband.id, "promo_balance", -promoSpent, origin.createdAt);
      if (balanceSpent)
        await writeStore.addToBalance(tx, wristband.id, "balance", -balanceSpent, origin.createdAt);
    }
    const id = newId(origin.createdAt);
    await writeStore.insertSale(tx, {
      id,
      status,
      type: "cart",
      payment_method: sale.paymentMethod,
      total,
      total_base: taxBreakdown.reduce((s, t) => s + t.base, 0),
      total_tax: taxBreakdown.reduce((s, t) => s + t.amount, 0),
      tax_breakdown: taxBreakdown,
      items,
      promo_spent: promoSpent,
      balance_spent: balanceSpent,
      wristband_id: wristband.id,
      day_id: this.catalog.dayFor(origin.occurredAt).id,
      device_id: origin.deviceId,
      occurred_at: origin.occurredAt,
      created_at: origin.createdAt,
    });
    return id;
  }
}
