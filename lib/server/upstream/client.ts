import "server-only";
import type { z } from "zod";
import {
  AccessCheck,
  type AccessCheckRequest,
  type CheckInRequest,
  Checkin,
  type CreateTopupRequest,
  Day,
  Event,
  ListEnvelope,
  type NewTicket,
  Ping,
  PlainList,
  type ReviewRequest,
  SalesSummary,
  Ticket,
  TicketType,
  Topup,
  TopupBonusQuote,
  Transaction,
  Wristband,
  Zone,
} from "@/lib/contract";
import { UpstreamError } from "./errors";
import { UpstreamTransport } from "./transport";
import type {
  CheckinListParams,
  ListItem,
  ListPage,
  ListParams,
  ListPath,
  QuoteParams,
  RequestOptions,
  SalesListParams,
  TicketListParams,
  TopupListParams,
  WristbandListParams,
} from "./types";

export * from "./errors";
export { defaultSleep } from "./transport";
export * from "./types";

/**
 * Typed client of the Integration API v1. Every answer is parsed with the contract's schemas
 * (unknown fields are dropped, never an error); every failure is an `UpstreamError`; retries and
 * the rate-limit state are the transport's (`transport.ts`).
 */

const lists = {
  ticket: ListEnvelope(Ticket),
  wristband: ListEnvelope(Wristband),
  transaction: ListEnvelope(Transaction),
  topup: ListEnvelope(Topup),
  checkin: ListEnvelope(Checkin),
};
const plain = { day: PlainList(Day), zone: PlainList(Zone), ticketType: PlainList(TicketType) };

function listSchema(path: string): z.ZodType<ListPage<unknown>> {
  if (path === "/tickets") return lists.ticket;
  if (path === "/wristbands") return lists.wristband;
  if (path === "/topups") return lists.topup;
  if (path === "/checkins") return lists.checkin;
  if (path === "/transactions" || /^\/wristbands\/[^/]+\/transactions$/.test(path)) return lists.transaction;
  throw new Error(`Not a paginated list path: ${path}`);
}

const seg = (value: string) => encodeURIComponent(value);

export class UpstreamClient extends UpstreamTransport {
  /* Reads. */
  ping(opts?: RequestOptions) {
    return this.get("/ping", {}, Ping, opts);
  }
  event(opts?: RequestOptions) {
    return this.get("/event", {}, Event, opts);
  }
  async days(opts?: RequestOptions): Promise<Day[]> {
    return (await this.get("/days", {}, plain.day, opts)).data;
  }
  async zones(opts?: RequestOptions): Promise<Zone[]> {
    return (await this.get("/zones", {}, plain.zone, opts)).data;
  }
  async ticketTypes(opts?: RequestOptions): Promise<TicketType[]> {
    return (await this.get("/ticket-types", {}, plain.ticketType, opts)).data;
  }
  tickets(params: TicketListParams = {}, opts?: RequestOptions): Promise<ListPage<Ticket>> {
    return this.get("/tickets", { ...params }, lists.ticket, opts);
  }
  ticketByCode(code: string, opts?: RequestOptions) {
    return this.get(`/tickets/${seg(code)}`, {}, Ticket, opts);
  }
  wristbands(params: WristbandListParams = {}, opts?: RequestOptions): Promise<ListPage<Wristband>> {
    return this.get("/wristbands", { ...params }, lists.wristband, opts);
  }
  wristbandByCode(code: string, opts?: RequestOptions) {
    return this.get(`/wristbands/${seg(code)}`, {}, Wristband, opts);
  }
  wristbandTransactions(
    code: string,
    params: SalesListParams = {},
    opts?: RequestOptions,
  ): Promise<ListPage<Transaction>> {
    return this.get(`/wristbands/${seg(code)}/transactions`, { ...params }, lists.transaction, opts);
  }
  transactions(params: SalesListParams = {}, opts?: RequestOptions): Promise<ListPage<Transaction>> {
    return this.get("/transactions", { ...params }, lists.transaction, opts);
  }
  topups(params: TopupListParams = {}, opts?: RequestOptions): Promise<ListPage<Topup>> {
    return this.get("/topups", { ...params }, lists.topup, opts);
  }
  checkins(params: CheckinListParams = {}, opts?: RequestOptions): Promise<ListPage<Checkin>> {
    return this.get("/checkins", { ...params }, lists.checkin, opts);
  }
  quote(params: QuoteParams, opts?: RequestOptions) {
    return this.get("/topup-bonuses/quote", { ...params }, TopupBonusQuote, opts);
  }
  salesSummary(params: { day_id?: string } = {}, opts?: RequestOptions) {
    return this.get("/reports/sales-summary", { ...params }, SalesSummary, opts);
  }

  /**
   * Every page of a list, following `next_cursor` while `has_more` is true. A short (or empty)
   * page says nothing about the end: only `has_more` does.
   */
  async *pages<P extends ListPath>(
    path: P,
    params: ListParams<P> = {} as ListParams<P>,
    opts?: RequestOptions,
  ): AsyncGenerator<ListPage<ListItem<P>>, void, undefined> {
    const schema = listSchema(path) as unknown as z.ZodType<ListPage<ListItem<P>>>;
    let cursor = params.starting_after;
    for (;;) {
      const page = await this.get(path, { ...params, starting_after: cursor }, schema, opts);
      yield page;
      if (!page.has_more) return;
      if (!page.next_cursor) {
        throw new UpstreamError({
          status: 200,
          type: "api_error",
          code: "invalid_response",
          message: `${path}: has_more is true but next_cursor is null.`,
        });
      }
      cursor = page.next_cursor;
    }
  }

  /** Every item of a list (all pages). */
  async *items<P extends ListPath>(
    path: P,
    params: ListParams<P> = {} as ListParams<P>,
    opts?: RequestOptions,
  ): AsyncGenerator<ListItem<P>, void, undefined> {
    for await (const page of this.pages(path, params, opts)) yield* page.data;
  }

  /* Writes: each needs an Idempotency-Key, one per logical call, reused on retries. */
  createTickets(tickets: NewTicket[], opts?: RequestOptions): Promise<ListPage<Ticket>> {
    return this.post("/tickets", { tickets }, lists.ticket, "write", opts);
  }
  cancelTicket(code: string, opts?: RequestOptions) {
    return this.post(`/tickets/${seg(code)}/cancel`, undefined, Ticket, "write", opts);
  }
  checkIn(code: string, body: CheckInRequest, opts?: RequestOptions) {
    return this.post(`/tickets/${seg(code)}/check-in`, body, Ticket, "checkin", opts);
  }
  accessCheck(body: AccessCheckRequest, opts?: RequestOptions) {
    return this.post("/access-checks", body, AccessCheck, "access", opts);
  }
  createTopup(body: CreateTopupRequest, opts?: RequestOptions) {
    return this.post("/topups", body, Topup, "write", opts);
  }
  reviewWristband(code: string, body: ReviewRequest = { decision: "keep" }, opts?: RequestOptions) {
    return this.post(`/wristbands/${seg(code)}/review`, body, Wristband, "write", opts);
  }
}
