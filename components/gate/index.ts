/**
 * What other screens may use of the gate's: a wristband read live with its balances (the desk
 * loads one before a top-up). The rest of this folder is the gate's own.
 */
export { BalanceFields, useWristband } from "./wristband-query";
