import "server-only";

/** What the process's root may use of the gates': their after-cycle step (misuse rules, capacity alerts). */
export { evaluateGates, type GatesOutcome, misuseAlertKinds } from "./evaluate";
