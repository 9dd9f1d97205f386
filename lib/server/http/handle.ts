import "server-only";
import { NextResponse } from "next/server";
import type { z } from "zod";
import type { BodyOf, EndpointSpec, ParamsOf, QueryOf } from "@/lib/shared/api/endpoints/define";
import type { Session, SessionUser } from "../auth/session";
import type { Client } from "../auth/sign-in";
import type { Dashboard } from "../dashboard";
import { readBody, readParams, readQuery } from "./input";
import { clientOf, publicRoute, route } from "./route";

/**
 * A route handler from its declaration (lib/shared/api/endpoints): `route()`'s checks (origin,
 * host, JSON body, session, the declared permission, the error envelope), then the declared
 * params, query and body parsed the one way (input.ts), then the answer parsed with the declared
 * schema and answered with the declared status. The handler only calls its feature.
 */

/** A JSON answer that needs more than its value: another status, headers or cookies. */
export class Answered<T> {
  constructor(
    readonly value: T,
    readonly options: { status?: number; headers?: Record<string, string>; cookies?: string[] } = {},
  ) {}
}

export const answered = <T>(value: T, options: Answered<T>["options"] = {}) => new Answered(value, options);

type IsPublic<E extends EndpointSpec> = E["permission"] extends "public" ? true : false;

export interface HandleContext<E extends EndpointSpec> {
  request: Request;
  dashboard: Dashboard;
  client: Client;
  session: IsPublic<E> extends true ? Session | null : Session;
  user: IsPublic<E> extends true ? SessionUser | null : SessionUser;
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
}

/** A JSON answer's value (or Answered); a declared download (csv, pdf, html) is the handler's own Response. */
export type HandlerResult<E extends EndpointSpec> = E["answer"] extends z.ZodType
  ? z.input<E["answer"]> | Answered<z.input<E["answer"]>>
  : Response;

/** What Next calls; the declaration rides along so the tests can match files and declarations. */
export type Handled = ((
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>) & { endpoint: EndpointSpec };

export function handle<E extends EndpointSpec>(
  endpoint: E,
  handler: (ctx: HandleContext<E>) => Promise<HandlerResult<E>> | HandlerResult<E>,
): Handled {
  async function run(
    request: Request,
    dashboard: Dashboard,
    session: Session | null,
    rawParams: unknown,
  ): Promise<Response> {
    const params = endpoint.params ? readParams(rawParams, endpoint.params) : undefined;
    const query = endpoint.query ? readQuery(request, endpoint.query) : undefined;
    const body = endpoint.body ? await readBody(request, endpoint.body, endpoint.bodyLimit) : undefined;
    const result = await handler({
      request,
      dashboard,
      client: clientOf(request, dashboard),
      session,
      user: session?.user ?? null,
      params,
      query,
      body,
    } as HandleContext<E>);
    return respond(endpoint, result);
  }
  const next =
    endpoint.permission === "public"
      ? publicRoute(({ request, dashboard, session, params }) => run(request, dashboard, session, params))
      : route(endpoint.permission, ({ request, dashboard, session, params }) =>
          run(request, dashboard, session, params),
        );
  return Object.assign(next, { endpoint }) as Handled;
}

/** The answer: parsed with the declared schema (an undeclared field never leaks), or the download as made. */
function respond(endpoint: EndpointSpec, result: unknown): Response {
  if (typeof endpoint.answer === "string") {
    if (!(result instanceof Response))
      throw new Error(
        `${endpoint.name} declares a ${endpoint.answer} answer: its handler must return a Response.`,
      );
    return result;
  }
  const { value, options } = result instanceof Answered ? result : new Answered(result);
  const response = NextResponse.json(endpoint.answer.parse(value), {
    status: options.status ?? endpoint.status ?? 200,
  });
  for (const [name, v] of Object.entries(options.headers ?? {})) response.headers.set(name, v);
  for (const cookie of options.cookies ?? []) response.headers.append("set-cookie", cookie);
  return response;
}
