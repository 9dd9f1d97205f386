/**
 * `npm start`'s side of the sandbox link (lib/server/sandbox-link.ts): the console child hears every
 * move of the sandbox clock and runs a sync cycle when a control asks. Requests wait until the
 * console has linked itself (it says so once its worker runs), and each resolves on the console's
 * answer, so a control of the Integration API returns only once both processes agree.
 */
import type { ChildProcess } from "node:child_process";
import type { Sandbox } from "../integration-api/simulator/sandbox-controls";
import { SandboxReply, type SandboxRequest } from "../lib/server/sandbox-link";

type Pending = { resolve: () => void; reject: (err: Error) => void };
type RequestBody = { kind: "clock"; offsetMs: number } | { kind: "sync" };

/** The console child as the link needs it (a ChildProcess spawned with an "ipc" stdio entry). */
type ConsoleChild = Pick<ChildProcess, "on" | "send">;

export function attachConsole(sandbox: Sandbox, child: ConsoleChild): void {
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let ready: () => void = () => undefined;
  const linked = new Promise<void>((resolve) => {
    ready = resolve;
  });

  child.on("message", (message: unknown) => {
    if (typeof message === "object" && message !== null && "sandboxLinked" in message) {
      ready();
      return;
    }
    const reply = SandboxReply.safeParse(message);
    if (!reply.success) return;
    const waiting = pending.get(reply.data.sandboxReply);
    pending.delete(reply.data.sandboxReply);
    if (reply.data.ok) waiting?.resolve();
    else waiting?.reject(new Error(reply.data.error ?? "the console could not do it"));
  });
  child.on("exit", () => {
    for (const waiting of pending.values()) waiting.reject(new Error("the console stopped"));
    pending.clear();
  });

  const request = async (body: RequestBody): Promise<void> => {
    await linked;
    const id = nextId++;
    const answered = new Promise<void>((resolve, reject) => pending.set(id, { resolve, reject }));
    child.send({ ...body, id } as SandboxRequest);
    return answered;
  };

  sandbox.clock.onChange((offsetMs) => request({ kind: "clock", offsetMs }));
  sandbox.console = { syncNow: () => request({ kind: "sync" }) };
}
