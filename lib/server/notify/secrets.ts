import "server-only";
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";

/**
 * Secrets of the notifications. A webhook's URL carries its token: it is sealed at rest with
 * AES-256-GCM under a key derived (HKDF-SHA256) from NOTIFY_SECRET_KEY, else from SESSION_SECRET,
 * and never shown back. The acknowledgement link of a message is signed (HMAC-SHA256, its own
 * derived key) and expires; it only opens the screen, signed in: no action without a session.
 */

const derive = (secret: string, info: string) =>
  Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.from("console-notify"), info, 32));

export interface NotifyKeys {
  seal: Buffer;
  sign: Buffer;
}

export function notifyKeys(config: { SESSION_SECRET: string; NOTIFY_SECRET_KEY?: string }): NotifyKeys {
  const root = config.NOTIFY_SECRET_KEY ?? config.SESSION_SECRET;
  return { seal: derive(root, "contact-secrets"), sign: derive(root, "acknowledge-links") };
}

const VERSION = "v1";

/** `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export function seal(keys: NotifyKeys, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keys.seal, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/** The sealed text, or an error when the key is not the one that sealed it (or the box was altered). */
export function unseal(keys: NotifyKeys, box: string): string {
  const [version, iv, tag, body] = box.split(".");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("not a sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", keys.seal, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    throw new Error("the secret cannot be read with this key (NOTIFY_SECRET_KEY or SESSION_SECRET changed?)");
  }
}

/** What may be shown of a webhook URL: its scheme and host. */
export function urlHint(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}/…`;
}

const mac = (keys: NotifyKeys, payload: string) =>
  createHmac("sha256", keys.sign).update(payload).digest("base64url");

/** A token naming an alert, valid until `expires`: `<alert id>.<expiry, epoch s>.<hmac>`. */
export function ackToken(keys: NotifyKeys, alertId: string, expires: Date): string {
  const payload = `${alertId}.${Math.floor(expires.getTime() / 1000)}`;
  return `${payload}.${mac(keys, payload)}`;
}

/** The alert a token names, or why not. */
export function readAckToken(
  keys: NotifyKeys,
  token: string,
  now: Date,
): { alertId: string } | { error: "invalid" | "expired" } {
  const m = token.match(/^([0-9]{1,18})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/);
  if (!m) return { error: "invalid" };
  const expected = Buffer.from(mac(keys, `${m[1]}.${m[2]}`));
  const given = Buffer.from(m[3]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { error: "invalid" };
  if (Number(m[2]) * 1000 < now.getTime()) return { error: "expired" };
  return { alertId: m[1]! };
}
