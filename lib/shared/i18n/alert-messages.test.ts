import { describe, expect, it } from "vitest";
import { MESSAGES, translatorFor } from "./messages";

/** The alerts' sentences: counts agree with their nouns, decimals follow the language. */

const ALERT_KINDS = Object.keys(MESSAGES.en.alerts.detail) as (keyof typeof MESSAGES.en.alerts.detail)[];

describe("alert sentences", () => {
  it("one wristband, one sale and one terminal read in the singular; more in the plural", () => {
    const en = translatorFor("en");
    expect(en("alerts.detail.negative_balance", { wristbands: 1, lowest: "-€1.00" })).toMatch(
      /^1 wristband was found below zero/,
    );
    expect(en("alerts.detail.negative_balance", { wristbands: 3, lowest: "-€1.00" })).toMatch(
      /^3 wristbands were found below zero/,
    );
    expect(en("alerts.detail.review_waiting", { waiting: 1, oldest_minutes: 61 })).toMatch(
      /^1 wristband has waited/,
    );
    const moved = en("alerts.detail.signed_night_moved", {
      day_id: "Day 2",
      signed_at: "06:10",
      sales_delta: "€12.34",
      count_delta: 1,
      topups_delta: "€0.00",
      withdrawals_delta: "€0.00",
      terminals: 1,
    });
    expect(moved).toContain("(1 sale)");
    expect(moved).toContain("from 1 terminal.");
    const es = translatorFor("es");
    expect(es("alerts.detail.negative_balance", { wristbands: 1, lowest: "-1,00 €" })).toContain(
      "se ha encontrado 1 pulsera con saldo negativo",
    );
  });

  it("the normal refund rate is a decimal in the reader's language, and says which nights it is from", () => {
    const figures = { refunds_15_min: 20, normal_15_min: 0.9, normal_from: "earlier_days" };
    expect(translatorFor("en")("alerts.detail.refund_spike", figures)).toBe(
      "20 refunds in the last 15 minutes, against 0.9 in a normal 15 minutes of the earlier nights (this one has just opened).",
    );
    expect(translatorFor("es")("alerts.detail.refund_spike", figures)).toContain(
      "frente a 0,9 en 15 minutos",
    );
    expect(translatorFor("en")("alerts.detail.refund_spike", { ...figures, normal_from: "today" })).toMatch(
      /normal 15 minutes today\.$/,
    );
  });

  it("every alert sentence formats in both languages with figures of its kind", () => {
    const sample = {
      device_id: "bar-01",
      silent_minutes: 16,
      behind_minutes: 42,
      day_id: "Day 2",
      signed_at: "06:10",
      sales_delta: "€1.00",
      count_delta: 2,
      topups_delta: "€0.00",
      withdrawals_delta: "€0.00",
      terminals: 2,
      mirror_total: "€1.00",
      upstream_total: "€2.00",
      resource: "sales",
      minutes_since_success: 3,
      paused_until: "12:00",
      refunds_15_min: 6,
      normal_15_min: 1,
      normal_from: "today",
      waiting: 2,
      oldest_minutes: 90,
      wristbands: 2,
      lowest: "-€1.00",
      zone: "VIP",
      entered: 950,
      capacity: 1000,
      percent: 95,
      threshold: 95,
      holder: "wb_1",
      from_zone: "General",
      to_zone: "VIP",
      from_device: "gate-01",
      to_device: "gate-03",
      seconds: 20,
      minimum_s: 60,
      ticket_code: "TCK1",
      check_ins: 2,
      wristband_id: "wb_1",
      amount: "€9.00",
      offline_sales: 2,
      offline_amount: "€14.00",
      balance: "-€4.00",
      denied: 12,
      reason: "unknown_code",
      window_s: 300,
    };
    for (const locale of ["en", "es"] as const) {
      const t = translatorFor(locale);
      for (const kind of ALERT_KINDS) {
        const text = t(`alerts.detail.${kind}`, sample);
        expect(text, `${locale} ${kind}`).not.toMatch(/[{}]|alerts\.detail/);
      }
    }
  });
});
