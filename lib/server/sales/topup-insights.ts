import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { LiveContext, LiveDay, TopupInsights } from "@/lib/shared/api/sales";
import * as aggregates from "../store/live-aggregates";

/** Top-ups the way organisers read them: by ticket type, by channel, the average, the liability. */

type BalanceFlows = Awaited<ReturnType<typeof aggregates.balanceFlowsPerDay>>;

/**
 * Pure: at the end of each day, paid money still unspent. Wristband sales spend promo credit
 * first; over all wristbands together that is at most the promo credit loaded so far. The sums run
 * over every day so far: from the first day whose records are not all `mirrored`, none is known.
 */
export function liabilityOf(
  days: Pick<LiveDay, "id" | "name">[],
  flows: BalanceFlows,
  mirrored: (dayId: string) => boolean = () => true,
): TopupInsights["liability"] {
  let paidIn = 0;
  let promoIn = 0;
  let withdrawn = 0;
  let sales = 0;
  let complete = true;
  return days.map((d) => {
    complete &&= mirrored(d.id);
    if (!complete)
      return {
        day_id: d.id,
        name: d.name,
        mirrored: false,
        loaded: null,
        withdrawn: null,
        spent: null,
        unspent: null,
        share: null,
      };
    const f = flows.find((x) => x.day_id === d.id);
    paidIn += f?.paid_in ?? 0;
    promoIn += f?.promo_in ?? 0;
    withdrawn += f?.withdrawn ?? 0;
    sales += f?.wristband_sales ?? 0;
    const spent = Math.max(0, sales - Math.min(promoIn, sales));
    const unspent = paidIn - withdrawn - spent;
    return {
      day_id: d.id,
      name: d.name,
      mirrored: true,
      loaded: paidIn,
      withdrawn,
      spent,
      unspent,
      share: paidIn > 0 ? unspent / paidIn : null,
    };
  });
}

export async function topupInsights(
  db: Queryable,
  ctx: Pick<LiveContext, "days" | "mirror">,
  day: LiveDay,
  rows: aggregates.FlowRow[],
): Promise<TopupInsights> {
  const { days } = ctx;
  const complete = new Set(
    ctx.mirror.days.filter((d) => d.walked && d.source === "mirror").map((d) => d.day_id),
  );
  const paid = rows.filter((r) => r.direction === "topup" && r.nature === "paid");
  const count = paid.reduce((n, r) => n + r.count, 0);
  const amount = paid.reduce((n, r) => n + r.amount, 0);
  const channel = (online: boolean) => {
    const of = paid.filter((r) => (r.payment_method === "online") === online);
    return { count: of.reduce((n, r) => n + r.count, 0), amount: of.reduce((n, r) => n + r.amount, 0) };
  };
  const [byType, flows] = await Promise.all([
    aggregates.paidTopupsByTicketType(db, day.id),
    aggregates.balanceFlowsPerDay(db),
  ]);
  const upToDay = days.slice(0, days.findIndex((d) => d.id === day.id) + 1);
  return {
    average_topup: count ? Math.round(amount / count) : 0,
    by_ticket_type: byType.map((r) => ({ ...r, average: r.count ? Math.round(r.amount / r.count) : 0 })),
    by_channel: [
      { channel: "online", ...channel(true) },
      { channel: "on_site", ...channel(false) },
    ],
    liability: liabilityOf(upToDay, flows, (id) => complete.has(id)),
  };
}
