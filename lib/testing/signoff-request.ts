import { randomUUID } from "node:crypto";
import type { SignoffInput } from "@/lib/shared/api/night";

/** A sign-off request as the route handler passes it on (a fresh idempotency key, no basis). */
export function signoffRequest(over: Partial<SignoffInput> & { day_id: string }): SignoffInput {
  return {
    idempotency_key: randomUUID(),
    based_on: null,
    comment: "",
    counted: [],
    sign_against_difference: false,
    blind: false,
    ...over,
  };
}

/** The tolerance of the tests: the defaults (5.00 per line, 20.00 per night). */
export const TEST_TOLERANCE = { line: 500, night: 2000 };
