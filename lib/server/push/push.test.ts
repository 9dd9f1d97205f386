import { afterEach, describe, expect, it } from "vitest";
import { openDb } from "@/lib/db/db";
import { EventStreamReader } from "@/lib/testing/event-stream-reader";
import { createTestSchema, testDatabaseUrls } from "@/lib/testing/test-db";
import { PushBus, type PushSignal, pushBus } from "./bus";
import { eventStream } from "./event-stream";

/**
 * The change bus and one browser's stream on it: events with ids, heartbeats, replay on a reconnect
 * with Last-Event-ID (or a reset), the session checked at each heartbeat, no listener left behind.
 * On PostgreSQL: two instances (two store connections of one schema) hear each other through
 * LISTEN/NOTIFY, and the LISTEN connection comes back when it is dropped.
 */

const open: { close(): void }[] = [];
afterEach(() => {
  for (const o of open.splice(0)) o.close();
});

/** The stream's clock: the heartbeat's data. */
const NOW = Date.parse("2026-07-10T21:00:00Z");

function stream(
  bus: PushBus,
  options: { lastEventId?: string | null; signedIn?: () => Promise<boolean>; heartbeatMs?: number } = {},
) {
  const controller = new AbortController();
  const response = eventStream({
    bus,
    lastEventId: options.lastEventId ?? null,
    heartbeatMs: options.heartbeatMs ?? 20,
    retryMs: 3000,
    stillSignedIn: options.signedIn ?? (async () => true),
    signal: controller.signal,
    now: () => NOW,
  });
  const reader = new EventStreamReader(response);
  open.push({ close: () => controller.abort() });
  return { response, reader, abort: () => controller.abort() };
}

const changes = (reader: EventStreamReader) =>
  reader.of("change").map((f) => ({ id: f.id, topics: JSON.parse(f.data!).topics }));

describe("the push stream of one browser", () => {
  it("answers an event stream that proxies do not buffer: retry hint, current id, events with ids, heartbeats", async () => {
    const bus = new PushBus();
    bus.emit("cycle");
    const { response, reader } = stream(bus);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    const [first] = await reader.readUntil((f) => f.length >= 1);
    expect(first).toMatchObject({ retry: "3000", id: bus.lastId, event: "heartbeat" });
    expect(first!.comments).toEqual(["heartbeat"]);
    bus.emit("sales");
    bus.emit("topups", "scans", "topups");
    await reader.readUntil(() => changes(reader).length === 2);
    expect(changes(reader)).toEqual([
      { id: `${bus.epoch}.2`, topics: ["sales"] },
      { id: `${bus.epoch}.3`, topics: ["topups", "scans"] },
    ]);
    // Heartbeats go on by themselves, each a comment (for proxies) and an event (for the browser).
    await reader.readUntil(() => reader.of("heartbeat").length >= 3);
    // Their data is the stream's clock (the process's one clock), not the system's.
    expect(
      reader.of("heartbeat").every((f) => f.comments.includes("heartbeat") && Number(f.data) === NOW),
    ).toBe(true);
  });

  it("a reconnect with Last-Event-ID gets exactly the events it missed, then the new ones", async () => {
    const bus = new PushBus();
    const first = stream(bus);
    bus.emit("sales");
    await first.reader.readUntil(() => changes(first.reader).length === 1);
    const lastSeen = changes(first.reader)[0]!.id!;
    first.abort(); // the connection drops
    bus.emit("topups");
    bus.emit("alerts");
    const second = stream(bus, { lastEventId: lastSeen });
    await second.reader.readUntil(() => changes(second.reader).length === 2);
    bus.emit("night");
    await second.reader.readUntil(() => changes(second.reader).length === 3);
    expect(changes(second.reader).map((c) => c.topics)).toEqual([["topups"], ["alerts"], ["night"]]);
    expect(second.reader.of("reset")).toEqual([]);
    // Nothing missed: nothing replayed, and the current id to resume from.
    const third = stream(bus, { lastEventId: bus.lastId });
    const [hello] = await third.reader.readUntil((f) => f.length >= 1);
    expect(hello!.id).toBe(bus.lastId);
    expect(changes(third.reader)).toEqual([]);
  });

  it("an id it cannot resume from (another instance's, older than the ring, unknown) gets a reset", async () => {
    const bus = new PushBus({ ringSize: 3 });
    for (const topic of ["sales", "topups", "scans", "cycle", "alerts"] as const) bus.emit(topic);
    expect(bus.since(`${bus.epoch}.2`)?.map((e) => e.seq)).toEqual([3, 4, 5]);
    for (const id of [`${bus.epoch}.1`, `${bus.epoch}.99`, "0123456789ab.3", "garbage"]) {
      expect(bus.since(id), id).toBeNull();
      const { reader } = stream(bus, { lastEventId: id });
      const [frame] = await reader.readUntil((f) => f.length >= 1);
      expect(frame).toMatchObject({ event: "reset", id: bus.lastId });
      expect(changes(reader)).toEqual([]);
    }
  });

  it("ends once the session is signed out (checked at each heartbeat), and on abort; no listener is left", async () => {
    const bus = new PushBus();
    let live = true;
    const signedOut = stream(bus, { signedIn: async () => live });
    const left = stream(bus, { heartbeatMs: 60_000 });
    await signedOut.reader.readUntil((f) => f.length >= 1);
    await left.reader.readUntil((f) => f.length >= 1);
    expect(bus.subscribers).toBe(2);
    live = false;
    await signedOut.reader.readToEnd();
    expect(signedOut.reader.ended).toBe(true);
    expect(bus.subscribers).toBe(1);
    left.abort();
    await left.reader.readToEnd();
    expect(left.reader.ended).toBe(true);
    expect(bus.subscribers).toBe(0);
    // A browser that goes away mid-read (the body cancelled) unsubscribes too.
    const cancelled = stream(bus);
    await cancelled.reader.readUntil((f) => f.length >= 1);
    await cancelled.reader.cancel();
    expect(bus.subscribers).toBe(0);
    // A thousand streams that come and go leave nothing behind.
    const many = Array.from({ length: 1000 }, () => stream(bus, { heartbeatMs: 60_000 }));
    expect(bus.subscribers).toBe(1000);
    for (const s of many) s.abort();
    expect(bus.subscribers).toBe(0);
  });
});

describe.runIf(testDatabaseUrls.dashboard)("two instances on PostgreSQL", () => {
  it("an emit on instance A reaches a stream on instance B (NOTIFY/LISTEN on the schema's channel), and B's LISTEN comes back when dropped", async () => {
    const schema = await createTestSchema(testDatabaseUrls.dashboard!);
    const other = await createTestSchema(testDatabaseUrls.dashboard!);
    const [a, b, elsewhere] = await Promise.all([
      openDb({ databaseUrl: schema.url }),
      openDb({ databaseUrl: schema.url }),
      openDb({ databaseUrl: other.url }),
    ]);
    const [busA, busB, busElsewhere] = [pushBus(a), pushBus(b), pushBus(elsewhere)];
    try {
      expect(pushBus(a)).toBe(busA); // one bus per store connection
      busB.listen(schema.url, 50);
      busElsewhere.listen(other.url, 50);
      await Promise.all([busB.whenHearingOthers(), busElsewhere.whenHearingOthers()]);
      const heardB: PushSignal[] = [];
      const heardElsewhere: PushSignal[] = [];
      busB.subscribe((s) => heardB.push(s));
      busElsewhere.subscribe((s) => heardElsewhere.push(s));
      const { reader } = stream(busB);
      await reader.readUntil((f) => f.length >= 1);

      busA.emit("sales");
      await reader.readUntil(() => changes(reader).length === 1);
      expect(changes(reader)[0]!.topics).toEqual(["sales"]);
      expect(changes(reader)[0]!.id).toBe(`${busB.epoch}.1`); // B's own id: a reconnect to B resumes
      // Another schema's console (a parallel test, another event) hears nothing.
      expect(heardElsewhere).toEqual([]);
      // B's emit reaches B's streams once (its own NOTIFY echo is skipped).
      busB.emit("cycle");
      busA.emit("alerts");
      await reader.readUntil(() => changes(reader).length === 3);
      expect(changes(reader).map((c) => c.topics)).toEqual([["sales"], ["cycle"], ["alerts"]]);

      // The LISTEN connection is dropped: it comes back by itself, and B's streams get a reset
      // (what was notified meanwhile is lost), sent once the new connection listens.
      const pid = busB.listenerPid!;
      await a.query("select pg_terminate_backend($1)", [pid]);
      await reader.readUntil(() => reader.of("reset").length === 1);
      expect(busB.hearsOthers).toBe(true);
      expect(busB.listenerPid).not.toBe(pid);
      busA.emit("night");
      await reader.readUntil(() => changes(reader).length === 4);
      expect(changes(reader)[3]!.topics).toEqual(["night"]);
      expect(busA.notifyFailures).toBe(0);
    } finally {
      await Promise.all([busA.close(), busB.close(), busElsewhere.close()]);
      await Promise.all([a.close(), b.close(), elsewhere.close()]);
      await Promise.all([schema.drop(), other.drop()]);
    }
  });
});
