import { CodeSegment, DeskQuoteQuery } from "../params";
import {
  DeskAnswer,
  DeskBody,
  DeskQuote,
  KeepAnswer,
  KeyOnlyBody,
  ReviewView,
  WithdrawalBody,
} from "../staff";
import { endpoint } from "./define";

/** The top-up desk: a live bonus quote, then the top-up or the refund. */
export const desk = {
  quote: endpoint({
    name: "desk.quote",
    summary:
      "The live bonus quote for the amounts on the desk's screen, for this person (cap and in-flight rules).",
    method: "GET",
    path: "/api/desk/quote",
    permission: "topups.create",
    query: DeskQuoteQuery,
    answer: DeskQuote,
    refresh: "lookup",
  }),
  topup: endpoint({
    name: "desk.topup",
    summary: "A top-up at the desk: the quoted bonus is sent along; a changed bonus is 409 bonus_mismatch.",
    method: "POST",
    path: "/api/desk/topups",
    permission: "topups.create",
    body: DeskBody,
    answer: DeskAnswer,
    status: 201,
    refresh: "once",
  }),
  withdrawal: endpoint({
    name: "desk.withdrawal",
    summary:
      "A refund of paid balance (never the promo balance); more than the balance is insufficient_balance.",
    method: "POST",
    path: "/api/desk/withdrawals",
    permission: "withdrawals.create",
    body: WithdrawalBody,
    answer: DeskAnswer,
    status: 201,
    refresh: "once",
  }),
};

/** The review queue: wristbands that compete for one ticket. */
export const review = {
  queue: endpoint({
    name: "review.queue",
    summary: "The review queue from the mirror (the sync worker refreshes it every cycle).",
    method: "GET",
    path: "/api/review",
    permission: "review.view",
    answer: ReviewView,
    refresh: "live",
    pushedBy: ["cycle"],
  }),
  keep: endpoint({
    name: "review.keep",
    summary: '"Keep this one": the wristband becomes active, the others blocked, their balances move to it.',
    method: "POST",
    path: "/api/review/{code}/keep",
    permission: "review.resolve",
    params: CodeSegment,
    body: KeyOnlyBody,
    answer: KeepAnswer,
    refresh: "once",
  }),
};
