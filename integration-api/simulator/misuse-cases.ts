import { ApiError } from "../errors";
import type { Services } from "../http/context";
import { DEMO_GATES, DEMO_STANDS, DEMO_ZONES, productById } from "../seed/demo-catalog";
import type { Origin, SaleLine } from "../services/write-service";
import type { Queryable } from "../store/db";
import { UNRESTRICTED } from "../store/sql";

/**
 * Sandbox control (issue 28): one case of misuse the console must find, written now through the
 * service's own write paths (the terminals' channel), so its records are genuine: an access check,
 * a check-in, an offline check-in's sync, a sale, an offline sale's sync.
 */

export const misuseCaseKinds = [
  "impossible_walk",
  "double_checkin",
  "double_swipe",
  "offline_double_spend",
  "denied_burst",
] as const;
export type MisuseCaseKind = (typeof misuseCaseKinds)[number];

export interface InjectedCase {
  object: "misuse_case";
  kind: MisuseCaseKind;
  /** The wristband, ticket or device the case is about. */
  subject: string;
  records: number;
}

const SECOND = 1000;
const gateOf = (zoneKey: string) => DEMO_GATES.find((g) => g.zone === zoneKey)!;
const codes = (tag: string) => ({
  nfc: `MIS${tag}${Math.random().toString(16).slice(2, 10)}`.toUpperCase(),
  uhf: `E28MIS${Math.random().toString(16).slice(2, 14)}`.toUpperCase(),
});

function zoneIdOf(services: Services, key: string): string {
  const name = DEMO_ZONES.find((z) => z.key === key)?.name;
  const zone = services.catalog.rows.zones.find((z) => z.name === name);
  if (!zone) throw new ApiError("invalid_parameter", `The event has no zone ${key}.`, "kind");
  return zone.id;
}

async function activeTicket(services: Services, day: string) {
  const [t] = await services.db.query<{ code: string }>(
    `select code from tickets where status = 'active' and $1 = any(valid_day_ids) order by random() limit 1`,
    [day],
  );
  if (!t) throw new ApiError("ticket_not_found", "No active ticket valid today is left to check in.");
  return t.code;
}

async function wristbandWith(services: Services, where: string, params: unknown[]) {
  const [w] = await services.db.query<{ id: string; nfc: string; balance: number; zone_ids: string[] }>(
    `select id, nfc, balance, zone_ids from wristbands where status = 'active' and ${where} order by random() limit 1`,
    params,
  );
  if (!w) throw new ApiError("wristband_not_found", "No wristband fits this case now.");
  return w;
}

/** One line of a stand's first product, `quantity` of it. */
function line(quantity: number, unitPrice?: number): SaleLine {
  const product = productById.get(DEMO_STANDS[0]!.products[0]!.productId)!;
  return {
    product_id: product.id,
    name: product.name,
    quantity,
    unit_price: unitPrice ?? product.unitPrice,
    included_quantity: 0,
    tax_type: product.taxType,
    rate: product.taxRate,
  };
}

export async function injectMisuse(
  services: Services,
  kind: MisuseCaseKind,
  now: Date,
): Promise<InjectedCase> {
  const t = now.getTime();
  const day = services.catalog.dayFor(now).id;
  const origin = (deviceId: string, occurred: number, created = t): Origin => ({
    occurredAt: new Date(occurred),
    createdAt: new Date(created),
    deviceId,
  });
  const tx = <T>(fn: (q: Queryable) => Promise<T>) => services.db.transaction(fn);
  switch (kind) {
    case "impossible_walk": {
      // Allowed at the General Area and, 20 s later, at the VIP Lounge: a person walks neither that fast.
      const general = zoneIdOf(services, "general");
      const vip = zoneIdOf(services, "vip");
      const w = await wristbandWith(
        services,
        "zone_ids @> array[$2, $3]::text[] and $1 = any(valid_day_ids)",
        [day, general, vip],
      );
      await tx((q) =>
        services.writes.accessCheck(
          q,
          UNRESTRICTED,
          { code: w.nfc, zone_id: general },
          origin(gateOf("general").deviceId, t - 20 * SECOND),
        ),
      );
      await tx((q) =>
        services.writes.accessCheck(
          q,
          UNRESTRICTED,
          { code: w.nfc, zone_id: vip },
          origin(gateOf("vip").deviceId, t),
        ),
      );
      return { object: "misuse_case", kind, subject: w.id, records: 2 };
    }
    case "double_checkin": {
      // A shared QR: accredited at one entrance, then at the other by an offline gate with a second wristband.
      const code = await activeTicket(services, day);
      const [a, b] = DEMO_GATES.filter((g) => g.checkIn);
      await tx((q) =>
        services.writes.checkIn(
          q,
          UNRESTRICTED,
          code,
          { wristband: codes("A") },
          origin(a!.deviceId, t - 90 * SECOND),
        ),
      );
      await tx((q) =>
        services.writes.syncOfflineCheckIn(q, code, codes("B"), origin(b!.deviceId, t - 60 * SECOND)),
      );
      return { object: "misuse_case", kind, subject: code, records: 2 };
    }
    case "double_swipe": {
      // The same bar charges the same wristband the same cart twice, 4 s apart.
      const w = await wristbandWith(services, "balance >= $1", [4 * line(1).unit_price]);
      const bar = DEMO_STANDS[0]!.deviceId;
      for (const at of [t - 4 * SECOND, t])
        await tx((q) =>
          services.writes.recordSale(
            q,
            { wristbandId: w.id, lines: [line(1)], paymentMethod: "wristband", online: true },
            origin(bar, at),
          ),
        );
      return { object: "misuse_case", kind, subject: w.id, records: 2 };
    }
    case "offline_double_spend": {
      // Two bars offline 15 minutes ago each sell 70 % of the balance; their buffers sync now.
      const w = await wristbandWith(services, "balance >= 400 and promo_balance <= 0", []);
      const price = Math.ceil(w.balance * 0.7);
      const bars = [DEMO_STANDS[0]!.deviceId, DEMO_STANDS[1]!.deviceId];
      for (const [i, bar] of bars.entries())
        await tx((q) =>
          services.writes.recordSale(
            q,
            { wristbandId: w.id, lines: [line(1, price)], paymentMethod: "wristband", online: false },
            origin(bar, t - (15 * 60 - i * 30) * SECOND),
          ),
        );
      return { object: "misuse_case", kind, subject: w.id, records: 2 };
    }
    case "denied_burst": {
      // Twelve unknown codes at the Camping Gate within a minute.
      const gate = gateOf("camping");
      const zone = zoneIdOf(services, "camping");
      for (let i = 0; i < 12; i++)
        await tx((q) =>
          services.writes.accessCheck(
            q,
            UNRESTRICTED,
            { code: `FAKE-${i}-${t}`, zone_id: zone },
            origin(gate.deviceId, t - (60 - i * 5) * SECOND),
          ),
        );
      return { object: "misuse_case", kind, subject: gate.deviceId, records: 12 };
    }
  }
}
