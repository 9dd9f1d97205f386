import { describe, expect, it } from "vitest";
import { ticketStatuses } from "@/lib/contract/resources";
import { TicketNameMatch } from "./search";

describe("the search answer's schema", () => {
  it("knows exactly the contract's ticket statuses (it repeats them to stay free of the contract)", () => {
    expect([...TicketNameMatch.shape.status.options].sort()).toEqual([...ticketStatuses].sort());
  });
});
