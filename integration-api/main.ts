import { LedgerReport } from "../lib/contract/admin";
import { type Db, StoreInUseError } from "../lib/db/db";
import { ConfigError, loadApiConfig } from "./config";
import { openStore, resolveAdminToken, startServer } from "./server";
import { type LedgerDifference, ledgerDifferences } from "./store/ledger-store";

/**
 * `npm run api`: starts the Integration API with the configuration from the environment.
 * `npm run api -- verify-ledger`: checks every wristband's balances against its records.
 */
async function serveApi() {
  const config = loadApiConfig();
  const server = await startServer(config);
  console.log(`[integration-api] listening on ${server.url} (environment ${config.API_ENVIRONMENT})`);
  console.log(`[integration-api] reference: ${server.url}/v1/reference`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

/** Checks the store directly, or asks the running service when it holds the embedded store. */
async function ledgerReport(): Promise<{ checked: number; differences: LedgerDifference[] }> {
  const config = loadApiConfig();
  let db: Db;
  try {
    db = await openStore(config);
  } catch (err) {
    if (!(err instanceof StoreInUseError)) throw err;
    const url = process.env.API_URL || `http://127.0.0.1:${config.API_PORT}`;
    console.log(`verify-ledger: the store is in use by the running service; asking ${url}/admin/ledger`);
    const res = await fetch(`${url}/admin/ledger`, {
      headers: { authorization: `Bearer ${resolveAdminToken(config)}` },
    });
    if (!res.ok) throw new Error(`GET /admin/ledger answered ${res.status}: ${await res.text()}`);
    return LedgerReport.parse(await res.json());
  }
  try {
    return await ledgerDifferences(db);
  } finally {
    await db.close();
  }
}

async function verifyLedger() {
  const { checked, differences } = await ledgerReport();
  if (differences.length === 0) {
    console.log(`verify-ledger: ${checked} wristbands checked, every balance equals its records.`);
    return;
  }
  console.log(`verify-ledger: ${checked} wristbands checked; first differences:`);
  for (const d of differences) {
    console.log(
      `  ${d.wristband_id} (${d.nfc}): balance ${d.balance} expected ${d.expected_balance}; promo_balance ${d.promo_balance} expected ${d.expected_promo_balance}`,
    );
  }
  process.exitCode = 1;
}

const command = process.argv[2];
const run = command === "verify-ledger" ? verifyLedger : command === undefined ? serveApi : undefined;
if (!run) {
  console.error(`Unknown command "${command}". Usage: npm run api [-- verify-ledger]`);
  process.exit(2);
}
run().catch((err) => {
  console.error(err instanceof ConfigError ? `[integration-api] ${err.message}` : err);
  process.exit(1);
});
