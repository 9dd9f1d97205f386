import { auth, connection, docs, users } from "./accounts";
import { alerts, terminals } from "./attention";
import type { EndpointSpec } from "./define";
import { desk, review } from "./desk";
import { gate } from "./gate";
import { gates } from "./gates";
import { audit, imports } from "./imports";
import { night } from "./night";
import { notify } from "./notify";
import { push } from "./push";
import { live } from "./sales";
import { theme, wall } from "./wall";

export type { AnswerOf, CallInput, EndpointSpec } from "./define";

/** Every endpoint of the console's own API, by domain: `endpoints.desk.topup`. */
export const endpoints = {
  gate,
  desk,
  review,
  imports,
  audit,
  live,
  night,
  terminals,
  alerts,
  gates,
  users,
  auth,
  connection,
  docs,
  push,
  wall,
  theme,
  notify,
};

/** The same, as one list (the tests and the OpenAPI document walk it). */
export const allEndpoints: EndpointSpec[] = Object.values(endpoints).flatMap((group) =>
  Object.values(group as Record<string, EndpointSpec>),
);
