/**
 * Where `npm start` has the dashboard listen. The sandbox listens on 127.0.0.1 only unless HOST
 * says otherwise: its sign-in page shows the demo passwords, and nothing outside this computer
 * needs it. Against a real upstream the console listens where HOST says, else on every interface
 * (Next's default: a production console sits behind its reverse proxy).
 */

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export interface ListenHost {
  /** The address given to `next start -H` (none: every interface). */
  bind: string | undefined;
  /** One sentence for the start banner: where it listens, and what that means. */
  note: string;
}

export function listenHost(options: { HOST?: string; sandbox: boolean }): ListenHost {
  const host = options.HOST?.trim() || undefined;
  if (options.sandbox && host === undefined)
    return {
      bind: "127.0.0.1",
      note: "Listening on 127.0.0.1 only (this computer). HOST=0.0.0.0 opens it to other devices; a phone's camera needs HTTPS.",
    };
  if (host === undefined)
    return { bind: undefined, note: "Listening on every interface (HOST chooses one)." };
  if (LOOPBACK.has(host)) return { bind: host, note: `Listening on ${host} only (this computer).` };
  return {
    bind: host,
    note: options.sandbox
      ? `Listening on ${host} (HOST): other devices can reach this sandbox and its demo logins; a phone's camera needs HTTPS.`
      : `Listening on ${host} (HOST).`,
  };
}
