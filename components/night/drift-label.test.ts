import { describe, expect, it } from "vitest";
import type { NightFigures } from "@/lib/shared/api/night";
import { translatorFor } from "@/lib/shared/i18n/messages";
import { driftOf } from "@/lib/shared/night-arithmetic";
import { driftLabel } from "./drift-label";

/** A night with one line of every kind the drift compares (a device with a dot, a rate with a decimal). */
function night(scale: number): NightFigures {
  return {
    day_id: "day_1",
    sales: { count: 3 * scale, total: 900 * scale, total_base: 800 * scale, total_tax: 100 * scale },
    sales_by_payment_method: [{ payment_method: "card", count: 3 * scale, total: 900 * scale }],
    sales_by_device: [
      { device_id: "bar.01", count: 2 * scale, total: 600 * scale },
      { device_id: "", count: scale, total: 300 * scale },
    ],
    sales_by_tax: [{ tax_type: "VAT", rate: 10.5, base: 800 * scale, tax: 100 * scale }],
    topups: { count: scale, amount: 1000 * scale },
    topups_by_payment_method: [{ payment_method: "cash", count: scale, amount: 1000 * scale }],
    withdrawals: { count: scale, amount: 50 * scale },
    withdrawals_by_payment_method: [{ payment_method: "card", count: scale, amount: 50 * scale }],
    bonuses: { count: scale, amount: 100 * scale },
    transfers: { count: scale, amount: 10 * scale },
    expected: [
      {
        device_id: "desk-1",
        payment_method: "cash",
        float: 0,
        topups: 1000 * scale,
        withdrawals: 0,
        sales: 0,
        expected: 1000 * scale,
      },
      {
        device_id: "",
        payment_method: "card",
        float: 0,
        topups: 0,
        withdrawals: 50 * scale,
        sales: 0,
        expected: -50 * scale,
      },
    ],
  };
}

const drift = driftOf("s1", night(1), night(2))!;
const words = (lang: "en" | "es") => {
  const t = translatorFor(lang) as unknown as (
    key: string,
    values?: Record<string, string | number>,
  ) => string;
  const value = (v: string) => (lang === "es" ? (translatorFor("es")(`value.${v}` as "value.card") ?? v) : v);
  return drift.lines.map((l) => driftLabel(t, value, l));
};

describe("drift line labels", () => {
  it("in English, every kind of line reads as the label the reconciliation gives it", () => {
    expect(drift.lines.length).toBeGreaterThanOrEqual(15);
    expect(words("en")).toEqual(drift.lines.map((l) => l.label));
  });

  it("in Spanish, every kind of line has Spanish words, with the desk and terminal names kept", () => {
    const es = words("es");
    expect(es).toContain("Ventas en bar.01");
    expect(es).toContain("Ventas en terminal desconocido");
    expect(es).toContain("efectivo esperado en desk-1");
    expect(es).toContain("tarjeta esperado en mostrador desconocido");
    expect(es).toContain("Base VAT 10.5%");
    expect(es.filter((w, i) => w === drift.lines[i]!.label)).toEqual([]);
  });
});
