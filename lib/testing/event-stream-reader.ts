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

  /**
   * Reads until `until(frames)` holds; fails if the stream ends first. No deadline of its own: it
   * waits for the frames themselves, and a stream that hangs is caught by the test's timeout.
   */
  async readUntil(until: (frames: SseFrame[]) => boolean): Promise<SseFrame[]> {
    while (!until(this.frames)) {
      if (this.ended) throw new Error(`the stream ended first: ${JSON.stringify(this.frames)}`);
      await this.readChunk();
    }
    return this.frames;
  }

  /** Reads until the stream ends (a stream that never does is caught by the test's timeout). */
  async readToEnd(): Promise<SseFrame[]> {
    while (!this.ended) await this.readChunk();
    return this.frames;
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }

  /** The frames of one event name. */
  of(event: string): SseFrame[] {
    return this.frames.filter((f) => f.event === event);
  }

  private async readChunk(): Promise<void> {
    const chunk = await this.reader.read();
    if (chunk.done) this.ended = true;
    else this.push(this.decoder.decode(chunk.value, { stream: true }));
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
