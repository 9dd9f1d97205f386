import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * Real receivers for the notifications' tests: an SMTP server (the `smtp-server` package) that
 * keeps every message it accepts, and an HTTP server that keeps every webhook body it is sent.
 * Both listen on a free port of 127.0.0.1 (port 0 unless one is given).
 */

export interface ReceivedMail {
  to: string[];
  subject: string;
  raw: string;
  /** The body, quoted-printable decoded. */
  text: string;
}

function decodeBody(raw: string): string {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  if (!/content-transfer-encoding: quoted-printable/i.test(head ?? "")) return body;
  const bytes = body
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

export async function startSmtpReceiver(port = 0) {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        // A long subject is folded and may be encoded: unfold and decode its encoded words.
        const header = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
        const line = /^Subject: (.*)$/m.exec(header)?.[1] ?? "";
        const subject = line.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, enc: string, text: string) =>
          enc.toUpperCase() === "B"
            ? Buffer.from(text, "base64").toString("utf8")
            : Buffer.from(
                text
                  .replace(/_/g, " ")
                  .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
                "latin1",
              ).toString("utf8"),
        );
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          subject,
          raw,
          text: decodeBody(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = (server as unknown as { server: Server }).server.address() as AddressInfo;
  return {
    mails,
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ReceivedPost {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** An HTTP receiver that can go down (its port refuses connections) and come back on the same port. */
export async function startHttpReceiver(port = 0) {
  const posts: ReceivedPost[] = [];
  let server: Server | null = null;
  let bound = port;
  const up = async () => {
    if (server) return;
    const s = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        posts.push({
          path: req.url ?? "",
          headers: req.headers,
          body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}"),
        });
        res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      });
    });
    await new Promise<void>((resolve, reject) => {
      s.once("error", reject);
      s.listen(bound, "127.0.0.1", resolve);
    });
    bound = (s.address() as AddressInfo).port;
    server = s;
  };
  const down = async () => {
    const s = server;
    server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await up();
  return {
    posts,
    url: (path: string) => `http://127.0.0.1:${bound}${path}`,
    up,
    down,
    close: down,
  };
}
