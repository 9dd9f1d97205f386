import type { Queryable } from "../store/db";
import { DEMO_PRODUCTS, DEMO_STANDS } from "./demo-catalog";
import { type DemoData, dayIndexAt, iso, MAX_LINES, SALE_METHOD, SALE_STATUS } from "./demo-model";

/** Writes the demo built in memory (demo-model.ts) into an empty, migrated store. */

const INSERT_CHUNK = 2000;

async function insertRows(
  tx: Queryable,
  table: string,
  count: number,
  row: (k: number) => unknown,
): Promise<void> {
  const sql = `insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`;
  for (let from = 0; from < count; from += INSERT_CHUNK) {
    const chunk: unknown[] = [];
    for (let k = from; k < Math.min(count, from + INSERT_CHUNK); k++) chunk.push(row(k));
    await tx.query(sql, [JSON.stringify(chunk)]);
  }
}

/** Inserts the items in id order (the order every list reads them in). */
function insertById<T extends { id: string }>(
  tx: Queryable,
  table: string,
  items: T[],
  row: (item: T) => unknown,
): Promise<void> {
  const sorted = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return insertRows(tx, table, sorted.length, (k) => row(sorted[k]));
}

const BULK_TABLES = ["tickets", "wristbands", "sales", "topups", "scans"];

/**
 * Secondary indexes of the bulk tables (not those backing a primary key or unique constraint) are
 * dropped while the rows go in and rebuilt from their own definitions afterwards, in the same
 * transaction: about twice as fast for a million sales.
 */
async function withoutSecondaryIndexes(tx: Queryable, write: () => Promise<void>): Promise<void> {
  const indexes = await tx.query<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class t on t.oid = i.indrelid
      where t.relname = any($1::text[]) and t.relnamespace = current_schema()::regnamespace
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
      order by 1`,
    [BULK_TABLES],
  );
  for (const index of indexes) await tx.query(`drop index ${index.name}`);
  await write();
  for (const index of indexes) await tx.query(index.def);
}

export async function writeDemo(tx: Queryable, data: DemoData): Promise<void> {
  await withoutSecondaryIndexes(tx, () => writeRows(tx, data));
}

/** A sale's items as stored, with its totals and tax breakdown per rate (bases rounded per rate). */
function saleLines(sales: DemoData["sales"], i: number) {
  const base = i * MAX_LINES;
  const items = [];
  const grossByRate = new Map<number, number>();
  let total = 0;
  for (let j = 0; j < sales.lines[i]; j++) {
    const p = DEMO_PRODUCTS[sales.product[base + j]];
    const quantity = sales.qty[base + j];
    const included = sales.incl[base + j];
    const charged = (quantity - included) * p.unitPrice;
    total += charged;
    grossByRate.set(p.taxRate, (grossByRate.get(p.taxRate) ?? 0) + charged);
    items.push({
      product_id: p.id,
      name: p.name,
      quantity,
      unit_price: p.unitPrice,
      charged_amount: charged,
      included_quantity: included,
    });
  }
  let totalBase = 0;
  const taxBreakdown = [...grossByRate.entries()]
    .filter(([, gross]) => gross !== 0)
    .sort((a, b) => a[0] - b[0])
    .map(([rate, gross]) => {
      const base = Math.round((gross * 100) / (100 + rate));
      totalBase += base;
      return { tax_type: "VAT", rate, base, amount: gross - base };
    });
  return { items, total, totalBase, taxBreakdown };
}

async function writeRows(tx: Queryable, data: DemoData): Promise<void> {
  const { days, zoneRows, typeRows, tickets, wristbands, sales } = data;
  const dayId = (i: number) => days[i].id;
  /** The columns every record has: its day (by the day rule), when it happened and when it arrived. */
  const placed = (occurred: number, created: number) => ({
    day_id: dayId(dayIndexAt(days, occurred)),
    occurred_at: iso(occurred),
    created_at: iso(created),
  });
  await insertRows(tx, "event", 1, () => data.eventRow);
  await insertRows(tx, "days", days.length, (k) => ({
    id: days[k].id,
    name: days[k].name,
    date: days[k].date,
    starts_at: iso(days[k].start),
    ends_at: iso(days[k].end),
  }));
  await insertRows(tx, "zones", zoneRows.length, (k) => zoneRows[k]);
  await insertRows(tx, "ticket_types", typeRows.length, (k) => typeRows[k]);
  await insertRows(tx, "bonus_rules", data.ruleRows.length, (k) => data.ruleRows[k]);

  await insertById(tx, "tickets", tickets, (t) => ({
    id: t.id,
    code: t.code,
    status: t.status,
    ticket_type_id: typeRows[t.type].id,
    attendee_name: t.name,
    attendee_email: t.email,
    document_type: t.docType,
    document_number: t.docNumber,
    birth_date: t.birthDate,
    valid_day_ids: t.days.map(dayId),
    extra_zone_ids: t.extraZones.map((z) => zoneRows[z].id),
    wristband_id: t.wristband >= 0 ? wristbands[t.wristband].id : null,
    checked_in_at: t.checkedInAt === null ? null : iso(t.checkedInAt),
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
  }));

  await insertById(tx, "wristbands", wristbands, (w) => ({
    id: w.id,
    nfc: w.nfc,
    uhf: w.uhf,
    status: w.status,
    balance: w.balance,
    promo_balance: w.promo,
    attendee_name: w.ticket >= 0 ? tickets[w.ticket].name : null,
    ticket_id: w.ticket >= 0 ? tickets[w.ticket].id : null,
    zone_ids: w.zones.map((z) => zoneRows[z].id),
    valid_day_ids: days.filter((d) => w.dayMask & (1 << d.index)).map((d) => d.id),
    created_at: iso(w.createdAt),
    updated_at: iso(w.updatedAt),
  }));

  await insertRows(tx, "sales", sales.n, (k) => {
    const i = data.salesOrder[k];
    const { items, total, totalBase, taxBreakdown } = saleLines(sales, i);
    return {
      id: data.salesIds[i],
      status: SALE_STATUS[sales.status[i]],
      type: "cart",
      payment_method: SALE_METHOD[sales.method[i]],
      total,
      total_base: totalBase,
      total_tax: total - totalBase,
      tax_breakdown: taxBreakdown,
      items,
      promo_spent: sales.promoSpent[i],
      balance_spent: sales.balanceSpent[i],
      wristband_id: wristbands[sales.w[i]].id,
      device_id: DEMO_STANDS[sales.stand[i]].deviceId,
      ...placed(sales.occurred[i], sales.created[i]),
    };
  });

  await insertById(tx, "topups", data.topups, (t) => ({
    id: t.id,
    direction: t.direction,
    amount: t.amount,
    previous_balance: t.prev,
    new_balance: t.next,
    payment_method: t.method,
    nature: t.nature,
    status: t.status,
    bonus_rule_id: t.ruleId,
    wristband_id: wristbands[t.w].id,
    device_id: t.device,
    ...placed(t.occurred, t.created),
  }));

  await insertById(tx, "scans", data.scans, (s) => ({
    id: s.id,
    kind: s.kind,
    allowed: s.allowed,
    reason: s.reason,
    code: s.code,
    ticket_code: s.ticketCode,
    wristband_id: s.w >= 0 ? wristbands[s.w].id : null,
    zone_id: s.zone >= 0 ? zoneRows[s.zone].id : null,
    device_id: s.device,
    ...placed(s.occurred, s.created),
  }));
}
