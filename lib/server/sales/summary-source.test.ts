import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import { type SyncUpstream, storeAndUpstreamPerFile, syncHarness } from "@/lib/testing/sync-harness";
import { overviewReport, salesDayReport, topupsDayReport } from "./reports";

/**
 * Summary first (issue 12): which source each figure comes from, and the switch to the mirror;
 * synced from the real Integration API in-process (lib/testing/sync-harness.ts).
 */

let store: Db;
let up: SyncUpstream;
storeAndUpstreamPerFile((opened) => ({ store, up } = opened));

const salesOf = (s: { sales: { count: number; total: number; total_base: number; total_tax: number } }) => ({
  count: s.sales.count,
  total: s.sales.total,
  total_base: s.sales.total_base,
  total_tax: s.sales.total_tax,
});

describe("figures while the mirror is incomplete, and after", () => {
  it("shows today's summary before any record is mirrored, then the mirror's equal figures", async () => {
    const h = await syncHarness(store, up, { seed: 31 });
    const now = () => h.clock.now();
    const today = up.days[2]!;
    await h.worker.step(); // first cycle: the catalog and the summaries, no record yet

    const early = await overviewReport(h.db, now());
    const summary = await h.view.summary(today.id);
    const [kept] = await h.db.query<{ summary: { generated_at: string } }>(
      "select summary from sync_day_summaries where day_id = $1",
      [today.id],
    );
    expect(early.day?.id).toBe(today.id);
    expect(early.figures.source).toBe("summary");
    expect(early.figures.summary_at).toBe(kept!.summary.generated_at);
    const { average_basket: _, ...totals } = early.totals;
    expect(totals).toEqual(salesOf(summary));
    // Paid money and promo credit apart (never one sum): the summary's top-ups by payment method.
    const paidWith = (keep: (method: string) => boolean) => {
      const of = summary.topups.by_payment_method.filter((m) => keep(m.payment_method));
      return { count: of.reduce((n, m) => n + m.count, 0), amount: of.reduce((n, m) => n + m.amount, 0) };
    };
    expect(early.flows).toEqual({
      topups: { count: summary.topups.count, amount: summary.topups.amount },
      paid: paidWith((m) => m !== "promo" && m !== "transfer"),
      promo: paidWith((m) => m === "promo"),
      withdrawals: { count: summary.withdrawals.count, amount: summary.withdrawals.amount },
      bonus: { count: summary.bonuses.count, amount: summary.bonuses.amount },
    });
    for (const d of early.by_day) expect(d.total).toBe((await h.view.summary(d.day_id)).sales.total);
    expect(early.hours.every((x) => x.total === 0)).toBe(true); // records panels: nothing mirrored yet
    expect(early.hours.every((x) => x.previous_total === null)).toBe(true); // nor the day before
    expect(early.mirror.state).toBe("backfilling");
    expect(early.mirror.days.find((d) => d.day_id === today.id)).toMatchObject({
      walked: false,
      records: 0,
      expected: summary.sales.count + summary.topups.count + summary.withdrawals.count,
    });

    const sales = await salesDayReport(h.db, { dayId: today.id, now: now() });
    expect(sales.figures.source).toBe("summary");
    expect(sales.by_product.map((p) => [p.product_id, p.total]).sort()).toEqual(
      summary.by_product.map((p) => [p.product_id, p.total]).sort(),
    );
    expect(sales.by_tax.map((x) => x.tax)).toEqual(
      [...summary.by_tax].sort((a, b) => a.rate - b.rate).map((x) => x.amount),
    );
    expect(sales.latest.data).toEqual([]);
    const topups = await topupsDayReport(h.db, { dayId: today.id, now: now() });
    expect(topups.figures.source).toBe("summary");
    expect(topups.net_inflow).toBeNull(); // needs the records: the summary does not split natures
    expect(topups.by_payment_method.reduce((n, m) => n + m.topups, 0)).toBe(summary.topups.amount);

    await h.worker.runOnce(); // every record mirrored, every day checked
    const late = await overviewReport(h.db, now());
    expect(late.figures).toEqual({ source: "mirror", summary_at: null });
    expect(late.mirror.state).toBe("following");
    const { average_basket: __, ...mirrored } = late.totals;
    expect(mirrored).toEqual(salesOf(await h.view.summary(today.id)));
    expect(late.by_day.map((d) => d.total)).toEqual(early.by_day.map((d) => d.total));
    expect(late.hours.reduce((n, x) => n + x.total, 0)).toBe(summary.sales.total);
    expect((await topupsDayReport(h.db, { dayId: today.id, now: now() })).net_inflow).not.toBeNull();
  });

  it("takes a day back to its summary while its mirror differs from it", async () => {
    const h = await syncHarness(store, up, { seed: 32 });
    await h.worker.runOnce();
    const day = up.days[1]!;
    expect((await salesDayReport(h.db, { dayId: day.id, now: h.clock.now() })).figures.source).toBe("mirror");
    await h.db.query("update sync_day_checks set matched = false where day_id = $1", [day.id]);
    const report = await salesDayReport(h.db, { dayId: day.id, now: h.clock.now() });
    expect(report.figures.source).toBe("summary");
    expect(report.totals).toEqual(salesOf(await h.view.summary(day.id)));
  });
});
