import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { SandboxClock } from "@/lib/contract/clock";
import type { Sandbox } from "../../integration-api/simulator/sandbox-controls";
import { attachConsole } from "../../scripts/sandbox-console";
import { linkSandbox } from "./sandbox-link";

/**
 * `npm start` and the console it starts, joined as by the child's IPC channel (two emitters, each
 * side's `send` delivering to the other): the console follows the sandbox clock and runs a cycle
 * when asked, and a control returns only once the console has done it.
 */
function joined() {
  const parentSide = new EventEmitter();
  const childSide = new EventEmitter();
  const deliver = (to: EventEmitter) => (message: unknown) => {
    // IPC delivers asynchronously and copies the message.
    setImmediate(() => to.emit("message", structuredClone(message)));
    return true;
  };
  const child = Object.assign(parentSide, { send: deliver(childSide) });
  const channel = Object.assign(childSide, { send: deliver(parentSide) });
  return { child, channel };
}

describe("the sandbox link between npm start and its console", () => {
  it("moves the console's clock with the sandbox's, before the control answers", async () => {
    const real = () => Date.parse("2026-11-27T14:00:00Z");
    const sandbox: Sandbox = {
      clock: SandboxClock.startingAt(new Date("2026-11-27T22:30:00Z"), real),
      console: null,
    };
    const consoleClock = new SandboxClock(sandbox.clock.offsetMs, real);
    const { child, channel } = joined();
    attachConsole(sandbox, child as never);
    // A move asked before the console has linked itself waits for it.
    const moved = sandbox.clock.advance(120_000);
    linkSandbox({ clock: consoleClock, syncNow: async () => undefined, log: console, channel });
    await moved;
    expect(consoleClock.now().toISOString()).toBe("2026-11-27T22:32:00.000Z");
  });

  it("runs a sync cycle now and answers once it is done; a failure is the control's failure", async () => {
    const sandbox: Sandbox = { clock: new SandboxClock(0), console: null };
    const { child, channel } = joined();
    attachConsole(sandbox, child as never);
    let cycles = 0;
    let fail = false;
    const errors: unknown[] = [];
    linkSandbox({
      clock: new SandboxClock(0),
      syncNow: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        if (fail) throw new Error("this console does not sync (SYNC=off)");
        cycles++;
      },
      log: { error: (...args: unknown[]) => errors.push(args) },
      channel,
    });
    await sandbox.console!.syncNow();
    expect(cycles).toBe(1);
    fail = true;
    await expect(sandbox.console!.syncNow()).rejects.toThrow("SYNC=off");
    expect(errors).toHaveLength(1);
  });

  it("a console that stops fails what waits for it", async () => {
    const sandbox: Sandbox = { clock: new SandboxClock(0), console: null };
    const { child, channel } = joined();
    attachConsole(sandbox, child as never);
    linkSandbox({
      clock: new SandboxClock(0),
      syncNow: () => new Promise(() => undefined),
      log: console,
      channel,
    });
    const waiting = sandbox.console!.syncNow();
    await new Promise((resolve) => setTimeout(resolve, 0));
    child.emit("exit", 1);
    await expect(waiting).rejects.toThrow("the console stopped");
  });

  it("ignores what is not one of its messages, and does nothing without a channel", () => {
    const { channel } = joined();
    const unlink = linkSandbox({
      clock: new SandboxClock(0),
      syncNow: async () => undefined,
      log: console,
      channel,
    });
    channel.emit("message", { kind: "clock", id: "x" });
    unlink();
    expect(channel.listenerCount("message")).toBe(0);
    const none = { on: () => undefined, off: () => undefined };
    expect(
      linkSandbox({
        clock: new SandboxClock(0),
        syncNow: async () => undefined,
        log: console,
        channel: none,
      })(),
    ).toBeUndefined();
  });
});
