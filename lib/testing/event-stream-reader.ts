/**
 * Reads a server-sent-events response in a test, as a browser's EventSource parses it: frames of
 * `field: value` lines separated by a blank line; comments (`: …`) kept apart.
 */

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comments: string[];
}

export class EventStreamReader {
  readonly frames: SseFrame[] = [];
  ended = false;
  private buffer = "";
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(response: Response) {
    if (!response.body) throw new Error("the response has no body");
    this.reader = response.body.getReader();
  }

  /** Reads until `until(frames)` holds or the stream ends; fails after `timeoutMs` (a hung stream). */
  async readUntil(until: (frames: SseFrame[]) => boolean, timeoutMs = 10_000): Promise<SseFrame[]> {
    const deadline = Date.now() + timeoutMs;
    while (!until(this.frames)) {
      if (this.ended) throw new Error(`the stream ended first: ${JSON.stringify(this.frames)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out: ${JSON.stringify(this.frames)}`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out: ${JSON.stringify(this.frames)}`)), left);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) this.ended = true;
      else this.push(this.decoder.decode(chunk.value, { stream: true }));
    }
    return this.frames;
  }

  /** Reads until the stream ends. */
  async readToEnd(timeoutMs = 10_000): Promise<SseFrame[]> {
    try {
      await this.readUntil(() => false, timeoutMs);
    } catch (err) {
      if (!this.ended) throw err;
    }
    return this.frames;
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }

  /** The frames of one event name. */
  of(event: string): SseFrame[] {
    return this.frames.filter((f) => f.event === event);
  }

  private push(text: string): void {
    this.buffer += text;
    for (let end = this.buffer.indexOf("\n\n"); end >= 0; end = this.buffer.indexOf("\n\n")) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const frame: SseFrame = { comments: [] };
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) frame.comments.push(line.slice(1).trim());
        else {
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "id" || field === "event" || field === "data" || field === "retry")
            frame[field] = value;
        }
      }
      this.frames.push(frame);
    }
  }
}
