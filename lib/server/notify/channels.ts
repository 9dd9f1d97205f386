import "server-only";
import nodemailer from "nodemailer";
import type { Channel } from "@/lib/shared/api/notify";
import type { Message } from "./messages";

/**
 * How a message leaves: e-mail over SMTP (nodemailer, the server in configuration) or an HTTP
 * POST to a webhook, as generic JSON or as a Slack-compatible incoming-webhook body. A failure
 * throws with a reason fit for the delivery log (no secret in it: never the webhook's URL).
 */

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
}

export function smtpSettings(config: {
  SMTP_HOST?: string;
  SMTP_PORT: number;
  SMTP_SECURE: "on" | "off";
  SMTP_USER?: string;
  SMTP_PASSWORD?: string;
  SMTP_FROM: string;
}): SmtpSettings | null {
  if (!config.SMTP_HOST) return null;
  return {
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE === "on",
    user: config.SMTP_USER,
    password: config.SMTP_PASSWORD,
    from: config.SMTP_FROM,
  };
}

const TIMEOUT_MS = 10_000;

export class DeliveryError extends Error {}

async function sendEmail(smtp: SmtpSettings | null, to: string, message: Message, deliveryId: string) {
  if (!smtp) throw new DeliveryError("SMTP is not configured (SMTP_HOST).");
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? "" } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    await transport.sendMail({
      from: smtp.from,
      to,
      subject: message.subject,
      text: message.text,
      headers: { "X-Console-Delivery": deliveryId },
    });
  } catch (err) {
    throw new DeliveryError(`SMTP: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
  } finally {
    transport.close();
  }
}

/** The generic JSON body: the message and every alert in it, fields named alike in every language. */
export function jsonBody(message: Message, deliveryId: string) {
  return {
    type: `alert.${message.purpose}`,
    delivery_id: deliveryId,
    subject: message.subject,
    text: message.text,
    alerts: message.alerts,
  };
}

const mrkdwn = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Slack's incoming-webhook format (Mattermost and Rocket.Chat read it too): text and sections. */
export function slackBody(message: Message) {
  const blocks: unknown[] = [
    { type: "section", text: { type: "mrkdwn", text: `*${mrkdwn(message.subject)}*` } },
  ];
  if (message.alerts.length === 0)
    blocks.push({ type: "section", text: { type: "mrkdwn", text: mrkdwn(message.text) } });
  for (const a of message.alerts.slice(0, 40)) {
    const links = [`<${a.link}|${mrkdwn(a.title)}>`];
    if (a.acknowledge_link) links.push(`<${a.acknowledge_link}|✔>`);
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text: `*[${a.severity}]* ${mrkdwn(a.title)} — ${mrkdwn(a.subject)}\n${mrkdwn(a.detail)}\n${links.join(" · ")}`.slice(
          0,
          2900,
        ),
      },
    });
  }
  return { text: message.subject, blocks };
}

async function post(url: string, body: unknown, deliveryId: string) {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": `console-delivery-${deliveryId}` },
      body: JSON.stringify(body),
      redirect: "error",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    // The cause names the host and port at most; never the URL's path, which holds the token.
    throw new DeliveryError(
      `webhook unreachable: ${cause.replace(/https?:\/\/\S+/g, "(url)")}`.slice(0, 300),
    );
  }
  await response.body?.cancel().catch(() => undefined);
  if (!response.ok) throw new DeliveryError(`webhook answered HTTP ${response.status}`);
}

export interface Destination {
  channel: Channel;
  /** The e-mail address, or the (unsealed) webhook URL. */
  target: string;
}

export async function deliver(
  smtp: SmtpSettings | null,
  to: Destination,
  message: Message,
  deliveryId: string,
): Promise<void> {
  if (to.channel === "email") return sendEmail(smtp, to.target, message, deliveryId);
  return post(
    to.target,
    to.channel === "slack" ? slackBody(message) : jsonBody(message, deliveryId),
    deliveryId,
  );
}
