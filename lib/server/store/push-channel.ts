import "server-only";
import pg from "pg";
import type { Queryable } from "@/lib/db/db";

/**
 * The push bus between instances on PostgreSQL: `NOTIFY` on a channel of the store's schema
 * (instances of one console share a schema; the tests' throwaway schemas of one database do not
 * hear each other), `LISTEN` on a dedicated connection that reconnects when it drops.
 */

const CHANNEL_PREFIX = "console_push_";

/** Sends a notification to every instance listening on this store's channel (fire and forget). */
export async function notifyPush(db: Queryable, payload: string): Promise<void> {
  await db.query(`select pg_notify('${CHANNEL_PREFIX}' || current_schema(), $1)`, [payload]);
}

export interface PushListener {
  /** Whether the LISTEN connection is up. */
  readonly connected: boolean;
  /** The backend process id of the LISTEN connection (tests end it to prove the reconnect). */
  readonly backendPid: number | null;
  close(): Promise<void>;
}

export interface ListenOptions {
  databaseUrl: string;
  onMessage: (payload: string) => void;
  /** After a reconnect: notifications may have been missed while the connection was down. */
  onReconnect: () => void;
  /** Each time the LISTEN is up (the first connect and every reconnect). */
  onConnect?: () => void;
  log?: Pick<Console, "warn">;
  /** First wait before a reconnect (doubled on each failure up to 30 s; default 1 s). */
  retryMs?: number;
}

/** LISTENs on the store's channel on its own connection; reconnects with backoff when it drops. */
export function listenPush(options: ListenOptions): PushListener {
  const baseRetry = options.retryMs ?? 1000;
  let client: pg.Client | null = null;
  let connected = false;
  let backendPid: number | null = null;
  let closed = false;
  let everConnected = false;
  let retry = baseRetry;
  let timer: NodeJS.Timeout | null = null;

  const schedule = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, retry);
    retry = Math.min(retry * 2, 30_000);
  };

  const dropped = (conn: pg.Client) => {
    if (client !== conn) return;
    client = null;
    connected = false;
    backendPid = null;
    conn.end().catch(() => undefined);
    schedule();
  };

  const connect = async () => {
    if (closed) return;
    const conn = new pg.Client({ connectionString: options.databaseUrl });
    client = conn;
    conn.on("error", (err) => {
      options.log?.warn("[push] LISTEN connection failed; reconnecting", err.message);
      dropped(conn);
    });
    conn.on("end", () => dropped(conn));
    conn.on("notification", (msg) => {
      if (msg.payload !== undefined) options.onMessage(msg.payload);
    });
    try {
      await conn.connect();
      const [{ schema, pid }] = (
        await conn.query<{ schema: string; pid: number }>(
          "select current_schema() as schema, pg_backend_pid() as pid",
        )
      ).rows as [{ schema: string; pid: number }];
      await conn.query(`listen "${(CHANNEL_PREFIX + schema).replaceAll('"', '""')}"`);
      if (closed || client !== conn) {
        await conn.end().catch(() => undefined);
        return;
      }
      connected = true;
      backendPid = pid;
      retry = baseRetry;
      options.onConnect?.();
      if (everConnected) options.onReconnect();
      everConnected = true;
    } catch (err) {
      options.log?.warn("[push] could not LISTEN; retrying", (err as Error).message);
      dropped(conn);
    }
  };

  void connect();
  return {
    get connected() {
      return connected;
    },
    get backendPid() {
      return backendPid;
    },
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      const conn = client;
      client = null;
      connected = false;
      await conn?.end().catch(() => undefined);
    },
  };
}
