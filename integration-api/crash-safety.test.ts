import { randomInt, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Checkin, Ticket, Topup } from "../lib/contract/resources";
import { createTestSchema, type TestSchema, testDatabaseUrls } from "../lib/testing/test-db";
import { ABANDONED_CLAIM_MS } from "./store/idempotency-store";
import {
  type ApiProcess,
  adminToken,
  createFullKey,
  fetchJson,
  freePort,
  runVerifyLedger,
  sandboxClock,
  spawnApi,
  walkList,
} from "./testing/api-process";

/**
 * Crash safety: the real server (a child process on an on-disk PGlite store, or in a throwaway
 * PostgreSQL schema on the CI's PostgreSQL pass) takes a stream of
 * concurrent writes and is killed with SIGKILL in the middle of it, three times. After each restart every
 * acknowledged write is there (and its Idempotency-Key replays the same answer), no ticket batch is
 * half-written, a client retrying what was in flight gets each write exactly once, and
 * verify-ledger is clean.
 */

const WORKERS = 8;
const BATCH_SIZE = 50;
const ROUNDS = 3;
/** Acknowledged writes per round before the kill (plus a random part, so the kill lands anywhere). */
const ACKS_BEFORE_KILL = 150;

type Kind = "topup" | "batch" | "check_in";

interface Write {
  kind: Kind;
  key: string;
  path: string;
  body: unknown;
  /** Ticket codes of a batch; the ticket code of a check-in. */
  codes: string[];
  /** The wristband NFC a check-in links. */
  nfc?: string;
  status?: number;
  text?: string;
  /** Sent, no answer: the server died with the request in flight. */
  inFlight?: boolean;
}

let dataDir: string;
/** On the CI's PostgreSQL pass the server keeps its store in a throwaway schema there. */
let schema: TestSchema | null = null;
let env: Record<string, string>;
let api: ApiProcess | null = null;
let key: string;
let testStart: Date;
const writes: Write[] = [];
const log: string[] = [];
let ticketTypeId: string;
let dayIds: string[];
/** Codes a worker may top up (active wristbands) and tickets it may check in (active). */
let wristbandCodes: string[] = [];
let activeTickets: string[] = [];
/** How far the sandbox clock is from the system clock (read after each start and move). */
let clockOffsetMs = 0;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const auth = () => ({ authorization: `Bearer ${key}` });

async function post(path: string, idempotencyKey: string, body: unknown) {
  const res = await fetch(`${api!.url}${path}`, {
    method: "POST",
    headers: { ...auth(), "content-type": "application/json", "idempotency-key": idempotencyKey },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), replayed: res.headers.get("idempotent-replayed") };
}

async function start() {
  // A new process starts its clock where the last one's was (a little behind: it reads it later).
  if (api) env.SANDBOX_START_AT = new Date(Date.now() + clockOffsetMs).toISOString();
  api = await spawnApi(env, { startTimeoutMs: 300_000 });
  clockOffsetMs = (await sandboxClock(api!, dataDir)).offset_ms;
  log.push(`started pid ${api.pid} on ${api.url}`);
}

/** The pools the workers draw from, read from the running server. */
async function loadPools() {
  const wristbands = await fetchJson<{ data: { nfc: string }[] }>(
    `${api!.url}/v1/wristbands?status=active&limit=200`,
    { headers: auth() },
  );
  wristbandCodes = wristbands.data.map((w) => w.nfc);
  activeTickets = (await walkList<Ticket>(`${api!.url}/v1/tickets?status=active`, key)).map((t) => t.code);
}

let batchCounter = 0;

function nextWrite(round: number): Write {
  const roll = Math.random();
  if (roll < 0.3 && activeTickets.length > 0) {
    const code = activeTickets.splice(randomInt(activeTickets.length), 1)[0];
    const nfc = `CRASHNFC${randomUUID().replaceAll("-", "").slice(0, 16).toUpperCase()}`;
    return {
      kind: "check_in",
      key: randomUUID(),
      path: `/v1/tickets/${code}/check-in`,
      body: { wristband: { nfc }, device_id: "crash-test-gate" },
      codes: [code],
      nfc,
    };
  }
  if (roll < 0.5) {
    const batch = ++batchCounter;
    const codes = Array.from({ length: BATCH_SIZE }, (_, i) => `CR${round}-${batch}-${i}`);
    return {
      kind: "batch",
      key: randomUUID(),
      path: "/v1/tickets",
      body: {
        tickets: codes.map((code, i) => ({
          code,
          ticket_type_id: ticketTypeId,
          attendee: { name: `Crash ${batch}.${i}`, email: `crash-${round}-${batch}-${i}@example.com` },
          valid_days: [dayIds[i % dayIds.length]],
        })),
      },
      codes,
    };
  }
  // Below every bonus tier (the lowest starts at 20.00), so no quote is needed.
  return {
    kind: "topup",
    key: randomUUID(),
    path: "/v1/topups",
    body: {
      code: wristbandCodes[randomInt(wristbandCodes.length)],
      amount: randomInt(500, 1501),
      payment_method: "card",
    },
    codes: [],
  };
}

/** Concurrent writers until `acks` answers are acknowledged, then SIGKILL with requests in flight. */
async function writeAndKill(round: number, acks: number) {
  let acked = 0;
  let killed = false;
  let kill: Promise<void> | null = null;
  const worker = async () => {
    while (!killed) {
      const write = nextWrite(round);
      writes.push(write);
      try {
        const res = await post(write.path, write.key, write.body);
        write.status = res.status;
        write.text = res.text;
        if (res.status >= 200 && res.status < 300) {
          acked++;
          if (write.kind === "batch") activeTickets.push(...write.codes);
          if (write.kind === "check_in") wristbandCodes.push(write.nfc!);
        }
      } catch {
        write.inFlight = true;
        return;
      }
      if (acked >= acks && !kill) {
        // A few milliseconds later, so the kill may land inside a commit, not only between them.
        kill = sleep(randomInt(0, 40)).then(() => {
          killed = true;
          return api!.crash();
        });
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  await kill;
  log.push(
    `round ${round}: SIGKILL after ${acked} acknowledged writes, ${writes.filter((w) => w.inFlight).length} in flight`,
  );
  const unexpected = writes.filter((w) => w.status !== undefined && w.status >= 300);
  expect(unexpected.map((w) => `${w.kind} ${w.status} ${w.text}`)).toEqual([]);
}

const acknowledged = () => writes.filter((w) => w.status !== undefined && w.status < 300);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "integration-api-crash-"));
  if (testDatabaseUrls.api) schema = await createTestSchema(testDatabaseUrls.api);
  env = {
    ...(schema ? { API_DATABASE_URL: schema.url } : {}),
    // Ports of its own in each vitest pass: `npm test` runs the PostgreSQL pass beside the first.
    API_PORT: String(await (schema ? freePort(4325, 4349) : freePort(4300, 4324))),
    API_DATA_DIR: dataDir,
    API_SEED: "demo",
    API_SEED_SCALE: "0.05",
    API_SIMULATOR: "off",
    API_ENVIRONMENT: "test",
    // The event seeded around a fixed event-local hour, so the run is the same at any hour.
    SANDBOX_START_AT: "23:30",
  };
  await start();
  testStart = new Date((await sandboxClock(api!, dataDir)).now);
  key = await createFullKey(api!.url, adminToken(dataDir), 100_000, "crash test");
  const types = await fetchJson<{ data: { id: string }[] }>(`${api!.url}/v1/ticket-types`, {
    headers: auth(),
  });
  ticketTypeId = types.data[0].id;
  dayIds = (await fetchJson<{ data: { id: string }[] }>(`${api!.url}/v1/days`, { headers: auth() })).data.map(
    (d) => d.id,
  );
  await loadPools();
}, 600_000);

afterAll(async () => {
  await api?.stop().catch(() => undefined);
  console.log(log.join("\n"));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await schema?.drop();
});

/** After a restart: what was acknowledged is there, batches are whole, in-flight writes retry once. */
async function checkAfterRestart(round: number) {
  const url = api!.url;
  const tickets = new Map((await walkList<Ticket>(`${url}/v1/tickets`, key)).map((t) => [t.code, t]));

  // No batch half-written, acknowledged or not.
  for (const w of writes.filter((w) => w.kind === "batch" && (w.status !== undefined || w.inFlight))) {
    const present = w.codes.filter((c) => tickets.has(c)).length;
    expect([0, BATCH_SIZE], `batch ${w.codes[0]}: ${present} of ${BATCH_SIZE} tickets`).toContain(present);
    if (w.status !== undefined && w.status < 300)
      expect(present, `acknowledged ${w.codes[0]}`).toBe(BATCH_SIZE);
  }

  // Every acknowledged write is present.
  const topups = new Map((await walkList<Topup>(`${url}/v1/topups`, key)).map((t) => [t.id, t]));
  const checkins = await walkList<Checkin>(`${url}/v1/checkins`, key);
  for (const w of acknowledged()) {
    const answer = JSON.parse(w.text!);
    if (w.kind === "topup") {
      expect(topups.get(answer.id), `top-up ${answer.id}`).toEqual(answer);
    } else if (w.kind === "check_in") {
      const ticket = tickets.get(w.codes[0]);
      expect(ticket?.status, `ticket ${w.codes[0]}`).toBe("used");
      expect(ticket?.wristband?.nfc).toBe(w.nfc);
      expect(checkins.some((c) => c.kind === "check_in" && c.ticket_code === w.codes[0])).toBe(true);
    } else {
      expect(answer.data.map((t: Ticket) => t.code)).toEqual(w.codes);
      for (const t of answer.data as Ticket[]) expect(tickets.get(t.code)?.id).toBe(t.id);
    }
  }

  // The same Idempotency-Key and body replay the stored answer, byte for byte.
  for (const w of writes.filter((w) => w.status !== undefined)) {
    const res = await post(w.path, w.key, w.body);
    expect(res.status, `replay of ${w.kind} ${w.key}`).toBe(w.status);
    expect(res.text).toBe(w.text);
    expect(res.replayed).toBe("true");
  }

  // What was in flight: the client retries with the same key and gets it done exactly once. On
  // PostgreSQL another instance could still be running the first attempt, so its claim answers
  // 409 idempotency_key_in_use until it is abandoned (60 s); a client waits and retries. Here the
  // sandbox's clock is moved past those 60 s instead of waiting for them.
  const inFlight = writes.filter((w) => w.inFlight);
  const inUse = (res: { status: number; text: string }) =>
    res.status === 409 && res.text.includes("idempotency_key_in_use");
  let retried = await Promise.all(inFlight.map((w) => post(w.path, w.key, w.body)));
  if (retried.some(inUse)) {
    const moved = await sandboxClock({ url }, dataDir, ABANDONED_CLAIM_MS / 1000 + 1);
    clockOffsetMs = moved.offset_ms;
    log.push(`round ${round}: claims in use after the restart; the clock moved to +${clockOffsetMs} ms`);
    retried = await Promise.all(
      inFlight.map((w, i) => (inUse(retried[i]!) ? post(w.path, w.key, w.body) : retried[i]!)),
    );
  }
  let replayed = 0;
  for (const [i, w] of inFlight.entries()) {
    const res = retried[i]!;
    expect(res.status, `retry of in-flight ${w.kind}: ${res.text}`).toBeLessThan(300);
    if (res.replayed === "true") replayed++;
    w.status = res.status;
    w.text = res.text;
    w.inFlight = false;
    if (w.kind === "batch") activeTickets.push(...w.codes);
    if (w.kind === "check_in") wristbandCodes.push(w.nfc!);
  }
  log.push(
    `round ${round}: ${acknowledged().length} acknowledged writes present; ${inFlight.length} in flight, of which ${replayed} had committed`,
  );
  const created = (await walkList<Topup>(`${url}/v1/topups?since=${testStart.toISOString()}`, key)).filter(
    (t) => t.device_id === null && t.nature === "paid" && new Date(t.created_at) >= testStart,
  );
  const topupWrites = writes.filter((w) => w.kind === "topup" && w.status === 201);
  expect(created.length, "one top-up record per top-up request").toBe(topupWrites.length);
  expect(new Set(created.map((t) => t.id))).toEqual(new Set(topupWrites.map((w) => JSON.parse(w.text!).id)));
}

async function verifyLedgerClean() {
  await api!.stop();
  const { code, output } = await runVerifyLedger(env);
  log.push(output);
  expect(output).toMatch(/every balance equals its records/);
  expect(code).toBe(0);
}

describe("SIGKILL in the middle of a stream of writes", () => {
  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round}: every acknowledged write survives, batches are whole, the ledger is clean`, async () => {
      await writeAndKill(round, ACKS_BEFORE_KILL + randomInt(100));
      expect(api!.child.signalCode).toBe("SIGKILL");
      await start();
      await checkAfterRestart(round);
      await verifyLedgerClean();
      if (round < ROUNDS) {
        await start();
        await loadPools();
      }
    }, 900_000);
  }
});
