import "server-only";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { isIPv4, isIPv6 } from "node:net";
import { markMethod } from "./methods";

/**
 * The source address of a request, for the sign-in throttle and the session list.
 *
 * Route handlers never see the socket, and the framework fills `X-Forwarded-For` from it only when
 * the client did not send one (so a client could name any address). At start-up the console
 * therefore stamps every incoming request with its socket's address in a header of its own,
 * overwriting whatever a client sent under that name (Node's `http.server.request.start`
 * diagnostics channel runs before the framework reads the request). `X-Forwarded-For` is believed
 * only with TRUST_PROXY set: then the address is the one the outermost trusted proxy saw.
 */
export const PEER_HEADER = "x-eoc-peer-address";

const holder = globalThis as typeof globalThis & { __peerStamping?: boolean };

/**
 * Starts stamping requests of this process with their socket address (once per process), and
 * marking a method the framework cannot handle so that proxy.ts refuses it (see methods.ts).
 */
export function stampPeerAddresses(): void {
  if (holder.__peerStamping) return;
  holder.__peerStamping = true;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_HEADER] = socket.remoteAddress ?? "";
    markMethod(request);
  });
}

/** The client's address: the socket's, or with `trustProxy` hops the one the outermost trusted proxy saw. */
export function clientAddress(request: Request, trustProxy: number): string | null {
  const peer = holder.__peerStamping ? request.headers.get(PEER_HEADER) || null : null;
  if (trustProxy === 0) return peer;
  const chain = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  // The nearest proxy is the socket itself; each further trusted hop appended one address.
  return chain[Math.max(0, chain.length - trustProxy)] ?? peer;
}

/** The host and protocol the browser used: the request's own, or the trusted proxy's forwarded ones. */
export function requestOrigin(
  request: Request,
  trustProxy: number,
): { host: string | null; proto: string | null } {
  const first = (name: string) => request.headers.get(name)?.split(",")[0]?.trim() || null;
  if (trustProxy > 0) {
    return {
      host: first("x-forwarded-host") ?? request.headers.get("host"),
      proto: first("x-forwarded-proto"),
    };
  }
  return { host: request.headers.get("host"), proto: null };
}

/**
 * Whether a Host header (`name[:port]`) names `localhost` or an IP literal (dotted IPv4, bracketed
 * IPv6): no DNS name, so no DNS rebinding can make a foreign site's page send it.
 */
export function isLoopbackOrIpHost(host: string): boolean {
  const v6 = host.match(/^\[([0-9A-Fa-f:.]+)\](?::\d{1,5})?$/);
  if (v6) return isIPv6(v6[1]!);
  const named = host.match(/^([^:[\]]+)(?::\d{1,5})?$/);
  if (!named) return false;
  return named[1]!.toLowerCase() === "localhost" || isIPv4(named[1]!);
}
