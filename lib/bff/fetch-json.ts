/** An error a route handler answered with: its code, message, and the upstream request id if any. */
export class BffError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/** Fetches one of the dashboard's own route handlers and unwraps its error envelope. */
export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, headers: { accept: "application/json", ...init?.headers } });
  const body = (await res.json().catch(() => null)) as
    | (T & { error?: undefined })
    | { error: { code: string; message: string; request_id?: string } }
    | null;
  if (!res.ok || !body) {
    const error = body && "error" in body && body.error ? body.error : undefined;
    throw new BffError(
      res.status,
      error?.code ?? "unavailable",
      error?.message ?? `The console answered ${res.status}.`,
      error?.request_id,
    );
  }
  return body as T;
}
