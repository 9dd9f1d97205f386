import "server-only";
import { attentionAfterCycle } from "./alerts/evaluate";
import { DashboardConfigError } from "./config";
import { getDashboard } from "./dashboard";
import { evaluateGates } from "./gates";
import { stampPeerAddresses } from "./http/client-address";
import { senderFor, senderLoop } from "./notify";
import { linkSandbox } from "./sandbox-link";
import { runSyncWhenLeader, SyncWorker } from "./sync";

/** The after-cycle work: the attention rules, then the gates' misuse rules and capacity alerts. */
async function withGates(db: Parameters<typeof evaluateGates>[0], attention: (at: Date) => Promise<unknown>) {
  return async (at: Date) => {
    await attention(at);
    await evaluateGates(db, at);
  };
}

const holder = globalThis as typeof globalThis & {
  __syncRunner?: { stop(): Promise<void> };
  __sandboxLinked?: boolean;
};

/**
 * Runs once per server process (instrumentation.ts): stamps requests with their socket address
 * (http/client-address.ts), validates the configuration — a bad one stops
 * the process with the variable's name —, opens the store, and starts the sync worker (on
 * PostgreSQL only in the instance holding the advisory lock).
 */
export async function startDashboard(): Promise<void> {
  // Before the first request is served: route handlers learn each request's socket address.
  stampPeerAddresses();
  try {
    const { config, db, upstream, clock, sandboxClock } = await getDashboard();
    let worker: SyncWorker | null = null;
    // The sandbox's controls (`npm start`'s IPC channel): its clock's moves, a sync cycle now.
    if (sandboxClock && !holder.__sandboxLinked) {
      holder.__sandboxLinked = true;
      linkSandbox({
        clock: sandboxClock,
        syncNow: async () => {
          if (!worker) throw new Error("this console does not sync (SYNC=off)");
          await worker.runOnce();
        },
        log: console,
      });
    }
    if (config.SYNC === "off" || holder.__syncRunner) return;
    const syncWorker = new SyncWorker({
      db,
      client: upstream,
      intervalMs: config.SYNC_INTERVAL_S * 1000,
      tailIntervalMs: config.SYNC_TAIL_S * 1000,
      log: console,
      now: clock,
      afterCycle: await withGates(db, await attentionAfterCycle(db, config)),
    });
    worker = syncWorker;
    // The notification sender runs beside the sync worker: in the one instance that leads.
    const sender = senderLoop(
      senderFor(db, config, clock, console),
      config.NOTIFY_INTERVAL_S * 1000,
      console,
    );
    const both = {
      start: () => {
        syncWorker.start();
        sender.start();
      },
      stop: async () => {
        await Promise.all([syncWorker.stop(), sender.stop()]);
      },
    };
    holder.__syncRunner = runSyncWhenLeader({
      db,
      databaseUrl: config.DATABASE_URL,
      worker: both,
      log: console,
    });
  } catch (err) {
    if (err instanceof DashboardConfigError) {
      console.error(`[dashboard] ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}
