import "server-only";
import { z } from "zod";
import type { SandboxClock } from "@/lib/contract/clock";

/**
 * The sandbox's link between `npm start` (which runs the Integration API and its clock) and the
 * console it starts as a child process: over the child's IPC channel, the parent tells every move
 * of the sandbox clock and asks for a sync cycle now (the controls of docs/testing.md). Each request
 * carries an id; the console answers it once done, so a control returns only when both processes
 * agree. A console started any other way has no channel and no link.
 */
export const SandboxRequest = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("clock"), id: z.number().int(), offsetMs: z.number().int() }),
  z.object({ kind: z.literal("sync"), id: z.number().int() }),
]);
export type SandboxRequest = z.infer<typeof SandboxRequest>;

export const SandboxReply = z.object({
  sandboxReply: z.number().int(),
  ok: z.boolean(),
  error: z.string().optional(),
});
export type SandboxReply = z.infer<typeof SandboxReply>;

/** The IPC channel to the parent: this process's own by default. */
export interface SandboxChannel {
  send?: (message: unknown) => unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
  off(event: "message", listener: (message: unknown) => void): unknown;
}

export interface SandboxLinkOptions {
  clock: SandboxClock;
  /** Runs a whole sync cycle now (the backfill included) and its after-cycle rules. */
  syncNow: () => Promise<void>;
  log: Pick<Console, "error">;
  channel?: SandboxChannel;
}

/** Listens to the parent's requests (when this process has an IPC channel). Answers an unlisten. */
export function linkSandbox(options: SandboxLinkOptions): () => void {
  const channel: SandboxChannel = options.channel ?? (process as unknown as SandboxChannel);
  const send = channel.send?.bind(channel);
  if (!send) return () => undefined;
  const listener = async (message: unknown) => {
    const request = SandboxRequest.safeParse(message);
    if (!request.success) return;
    const { id } = request.data;
    let reply: SandboxReply;
    try {
      if (request.data.kind === "clock") {
        options.clock.follow(request.data.offsetMs);
        reply = { sandboxReply: id, ok: true };
      } else {
        await options.syncNow();
        reply = { sandboxReply: id, ok: true };
      }
    } catch (err) {
      options.log.error("[sandbox] control failed", err);
      reply = { sandboxReply: id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    send(reply);
  };
  channel.on("message", listener);
  send({ sandboxLinked: true });
  return () => channel.off("message", listener);
}
