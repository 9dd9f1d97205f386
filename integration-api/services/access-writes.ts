import type { Clock } from "../../lib/contract/clock";
import type { AccessCheck, AccessCheckRequest } from "../../lib/contract/requests";
import { ApiError } from "../errors";
import { newId } from "../ids";
import type { Queryable } from "../store/db";
import type { Visibility } from "../store/sql";
import { writeStore } from "../store/write-store";
import type { Catalog } from "./catalog-service";
import { lockByCode, nowOrigin, type Origin } from "./write-common";

/** Access checks at the gates. */
export class AccessWrites {
  constructor(
    private readonly catalog: Catalog,
    private readonly clock: Clock,
  ) {}

  /** Validates a zone for a code; every check, allowed or not, goes to the scan log. */
  async accessCheck(
    tx: Queryable,
    v: Visibility,
    body: AccessCheckRequest,
    origin: Origin = nowOrigin(this.clock()),
  ): Promise<AccessCheck> {
    const zone = this.catalog.zoneById.get(body.zone_id);
    if (!zone) throw new ApiError("invalid_parameter", "No zone with this id.", "zone_id");
    const day = this.catalog.dayFor(origin.occurredAt);
    const { wristband, ticket } = await lockByCode(tx, v, body.code);
    let reason: string | null = null;
    if (wristband) {
      if (wristband.status !== "active") reason = wristband.status;
      else if (!wristband.valid_day_ids.includes(day.id)) reason = "day_not_valid";
      else if (!wristband.zone_ids.includes(zone.id)) reason = "zone_not_allowed";
    } else if (ticket) {
      // A ticket not yet accredited opens what its type and extra zones open, on its valid days.
      const zones = [...this.catalog.typeById.get(ticket.ticket_type_id)!.zone_ids, ...ticket.extra_zone_ids];
      if (ticket.status === "inactive") reason = "ticket_inactive";
      else if (!ticket.valid_day_ids.includes(day.id)) reason = "day_not_valid";
      else if (!zones.includes(zone.id)) reason = "zone_not_allowed";
    } else {
      reason = "unknown_code";
    }
    await writeStore.insertScan(tx, {
      id: newId(origin.createdAt),
      kind: "access_check",
      allowed: reason === null,
      reason,
      code: body.code,
      ticket_code: ticket?.code ?? wristband?.ticket_code ?? null,
      wristband_id: wristband?.id ?? null,
      zone_id: zone.id,
      device_id: body.device_id ?? origin.deviceId,
      day_id: day.id,
      occurred_at: origin.occurredAt,
      created_at: origin.createdAt,
    });
    return {
      object: "access_check",
      allowed: reason === null,
      reason,
      zone,
      wristband: wristband ? { id: wristband.id, nfc: wristband.nfc, status: wristband.status } : null,
      checked_at: origin.occurredAt.toISOString(),
    };
  }
}
