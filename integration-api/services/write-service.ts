import type { Clock } from "../../lib/contract/clock";
import { AccessWrites } from "./access-writes";
import type { Catalog } from "./catalog-service";
import { MoneyWrites } from "./money-writes";
import type { ReadService } from "./read-service";
import { ReviewWrites } from "./review-writes";
import { SaleWrites } from "./sale-writes";
import { TicketWrites } from "./ticket-writes";

export type { SaleLine } from "./sale-writes";
export { nowOrigin, type Origin } from "./write-common";

/**
 * The write side: every state transition and money movement of the decisions, one domain per
 * file (ticket-, access-, money-, review- and sale-writes.ts). Each method runs inside the
 * caller's transaction (`tx`), so a request's records, balances and idempotency answer commit
 * together or not at all. This facade is what the routes, the simulator and the tests call.
 */
export class WriteService {
  private readonly tickets: TicketWrites;
  private readonly access: AccessWrites;
  private readonly money: MoneyWrites;
  private readonly reviews: ReviewWrites;
  private readonly sales: SaleWrites;

  constructor(catalog: Catalog, reads: ReadService, clock: Clock) {
    this.tickets = new TicketWrites(catalog, reads, clock);
    this.access = new AccessWrites(catalog, clock);
    this.money = new MoneyWrites(catalog, reads, clock);
    this.reviews = new ReviewWrites(catalog, reads, clock);
    this.sales = new SaleWrites(catalog);
  }

  createTickets(...args: Parameters<TicketWrites["createTickets"]>) {
    return this.tickets.createTickets(...args);
  }

  cancelTicket(...args: Parameters<TicketWrites["cancelTicket"]>) {
    return this.tickets.cancelTicket(...args);
  }

  checkIn(...args: Parameters<TicketWrites["checkIn"]>) {
    return this.tickets.checkIn(...args);
  }

  syncOfflineCheckIn(...args: Parameters<TicketWrites["syncOfflineCheckIn"]>) {
    return this.tickets.syncOfflineCheckIn(...args);
  }

  accessCheck(...args: Parameters<AccessWrites["accessCheck"]>) {
    return this.access.accessCheck(...args);
  }

  createTopup(...args: Parameters<MoneyWrites["createTopup"]>) {
    return this.money.createTopup(...args);
  }

  review(...args: Parameters<ReviewWrites["review"]>) {
    return this.reviews.review(...args);
  }

  recordSale(...args: Parameters<SaleWrites["recordSale"]>) {
    return this.sales.recordSale(...args);
  }
}
