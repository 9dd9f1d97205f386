"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { textLinkClass } from "@/components/ui/class-names";
import { CursorPagerNav, useCursorPager } from "@/components/ui/cursor-pager";
import { DataTable, numeric } from "@/components/ui/data-table";
import { Field, Fields } from "@/components/ui/fields";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { fetchJson } from "@/lib/shared/api/client";
import { SalesPage } from "@/lib/shared/api/staff";
import { formatMoney } from "@/lib/shared/format/money";
import { dateTime } from "@/lib/shared/format/time";
import { StatusBadge } from "./status-badge";
import { BalanceFields, useWristband } from "./wristband-query";

export function WristbandView({ code }: { code: string }) {
  const query = useWristband(code);
  if (query.isPending) return <Loading what="the wristband" />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { wristband: w, currency, timeZone, days, topups } = query.data;
  const money = (c: number) => formatMoney(c, currency);
  const dayName = (id: string) => days.find((d) => d.id === id)?.name ?? id;
  return (
    <div className="space-y-4">
      <Panel title={`Wristband ${w.nfc}`}>
        <Fields>
          <Field label="Status">
            <StatusBadge status={w.status} />
          </Field>
          <BalanceFields wristband={w} money={money} />
          <Field label="UHF">{w.uhf ?? "—"}</Field>
          <Field label="Attendee">
            {w.attendee.anonymous ? "anonymous" : <SafeText text={w.attendee.name ?? "—"} />}
          </Field>
          <Field label="Ticket">
            {w.ticket ? (
              <Link className={textLinkClass} href={`/tickets/${encodeURIComponent(w.ticket.code)}`}>
                {w.ticket.code}
              </Link>
            ) : (
              "none"
            )}
            {w.ticket && ` (${w.ticket.ticket_type})`}
          </Field>
          <Field label="Allowed zones">{w.allowed_zones.map((z) => z.name).join(", ") || "none"}</Field>
          <Field label="Valid days">{w.valid_days.map(dayName).join(", ") || "—"}</Field>
        </Fields>
      </Panel>
      <WristbandSales code={w.nfc} money={money} timeZone={timeZone} />
      <Panel title="Top-ups">
        <DataTable
          caption="Top-ups of this wristband"
          hiddenCaption
          empty={<Empty plain>No top-ups yet (the list follows the sync, within 30 s).</Empty>}
          columns={[
            "When",
            "Direction",
            "Nature",
            "Method",
            "Status",
            numeric("Amount"),
            numeric("Balance after"),
          ]}
          rows={topups.map((t) => ({
            key: t.id,
            cells: [
              dateTime(t.occurred_at, timeZone),
              t.direction,
              t.nature,
              t.payment_method,
              t.status,
              money(t.amount),
              money(t.new_balance),
            ],
          }))}
        />
      </Panel>
    </div>
  );
}

/** The wristband's sales, read live page by page (newest first), each with its items and taxes. */
function WristbandSales({
  code,
  money,
  timeZone,
}: {
  code: string;
  money: (minor: number) => string;
  timeZone: string;
}) {
  const pager = useCursorPager();
  const query = useQuery({
    queryKey: ["wristband-sales", code, pager.cursor],
    queryFn: () =>
      fetchJson(
        `/api/wristbands/${encodeURIComponent(code)}/sales${pager.cursor ? `?starting_after=${pager.cursor}` : ""}`,
        SalesPage,
      ),
  });
  const page = query.data;
  return (
    <Panel title="Sales">
      {query.isPending && <Loading what="sales" />}
      {query.isError && <ErrorBox error={query.error} />}
      {page && (
        <>
          {page.data.length === 0 && <Empty plain>No sales.</Empty>}
          <ul className="space-y-2">
            {page.data.map((s) => (
              <li key={s.id} className="rounded border border-slate-100 p-2 text-sm">
                <div className="flex flex-wrap justify-between gap-2">
                  <span>
                    {dateTime(s.occurred_at, timeZone)} · {s.type} · {s.payment_method} · {s.status}
                  </span>
                  <strong>{money(s.total)}</strong>
                </div>
                <ul className="ml-4 list-disc text-slate-700">
                  {s.items.map((item, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: items have no id of their own
                    <li key={i}>
                      {item.quantity} × {item.name} ({money(item.unit_price)})
                      {item.included_quantity > 0 && `, ${item.included_quantity} included`} ={" "}
                      {money(item.charged_amount)}
                    </li>
                  ))}
                </ul>
                <p className="text-xs text-slate-600">
                  Base {money(s.total_base)} · taxes{" "}
                  {s.tax_breakdown.map((t) => `${t.tax_type} ${t.rate}% ${money(t.amount)}`).join(", ") ||
                    "none"}
                </p>
              </li>
            ))}
          </ul>
          <CursorPagerNav
            pager={pager}
            next={page.has_more ? page.next_cursor : null}
            label="Wristband sales pages"
            backLabel="Previous sales"
            forwardLabel="More sales"
          />
        </>
      )}
    </Panel>
  );
}
