import { z } from "zod";
import { roles } from "../permissions";
import { AlertKind, AlertSeverity } from "./attention";
import { typedText } from "./params";

/**
 * Contact points, routes and deliveries of alerts (issue 29): the manager's screen and the
 * delivery log. A webhook's URL is a secret: it goes in, never out (ContactPoint has only a hint).
 */

export const channels = ["email", "webhook", "slack"] as const;
export const Channel = z.enum(channels);
export type Channel = z.infer<typeof Channel>;

const Locale = z.enum(["en", "es"]);
const RoleName = z.enum(roles);

/** The minutes of a day, from "HH:MM". */
const ClockTime = z
  .string()
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, "must be a time of day such as 22:30.")
  .transform((s) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5)));

export const ContactInput = z
  .object({
    name: typedText({ min: 1, max: 80, tooShort: "is required." }),
    channel: Channel,
    /** The e-mail address (e-mail), or the webhook's URL (webhook, slack): the URL is kept sealed. */
    target: z.string().trim().min(1, "is required.").max(2000, "at most 2000 characters."),
    locale: Locale.default("en"),
    role: RoleName.nullable().default(null),
  })
  .superRefine((c, ctx) => {
    if (c.channel === "email") {
      if (!z.email().safeParse(c.target).success)
        ctx.addIssue({ code: "custom", path: ["target"], message: "must be an e-mail address." });
      return;
    }
    const url = URL.parse(c.target);
    if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password)
      ctx.addIssue({ code: "custom", path: ["target"], message: "must be an http:// or https:// URL." });
  });

export const ContactPoint = z.object({
  id: z.string(),
  name: z.string(),
  channel: Channel,
  /** The e-mail address; for a webhook, only where it goes ("https://hooks.slack.com/…"). */
  shown_target: z.string(),
  locale: Locale,
  role: RoleName.nullable(),
  created_by: z.string(),
  created_at: z.string(),
});
export type ContactPoint = z.infer<typeof ContactPoint>;

const Minutes = z.number().int().min(1).max(1440);

export const RouteInput = z
  .object({
    /** Null: every kind (the kinds added later included). */
    kind: AlertKind.nullable(),
    min_severity: AlertSeverity.default("info"),
    contact_ids: z
      .array(z.string().regex(/^[0-9]{1,18}$/))
      .max(20)
      .default([]),
    roles: z.array(RoleName).max(3).default([]),
    group_window_s: z.number().int().min(0).max(3600).default(60),
    quiet_from: ClockTime.nullable().default(null),
    quiet_to: ClockTime.nullable().default(null),
    remind_after_min: Minutes.nullable().default(null),
    escalate_after_min: Minutes.nullable().default(null),
    escalate_to: z
      .string()
      .regex(/^[0-9]{1,18}$/)
      .nullable()
      .default(null),
  })
  .superRefine((r, ctx) => {
    if (r.contact_ids.length === 0 && r.roles.length === 0)
      ctx.addIssue({ code: "custom", path: ["contact_ids"], message: "name a contact point or a role." });
    if ((r.quiet_from === null) !== (r.quiet_to === null))
      ctx.addIssue({ code: "custom", path: ["quiet_to"], message: "quiet hours need a start and an end." });
    if ((r.escalate_to === null) !== (r.escalate_after_min === null))
      ctx.addIssue({
        code: "custom",
        path: ["escalate_to"],
        message: "an escalation needs a contact point and a number of minutes.",
      });
  });
export type RouteInput = z.output<typeof RouteInput>;

export const Route = z.object({
  id: z.string(),
  kind: AlertKind.nullable(),
  min_severity: AlertSeverity,
  contact_ids: z.array(z.string()),
  roles: z.array(RoleName),
  group_window_s: z.number(),
  /** Minutes of the day in the event's time zone. */
  quiet_from: z.number().nullable(),
  quiet_to: z.number().nullable(),
  remind_after_min: z.number().nullable(),
  escalate_after_min: z.number().nullable(),
  escalate_to: z.string().nullable(),
});
export type Route = z.infer<typeof Route>;

export const NotifySettings = z.object({
  contacts: z.array(ContactPoint),
  routes: z.array(Route),
  /** Whether SMTP_HOST is set: e-mail contact points can send. */
  smtp_configured: z.boolean(),
  time_zone: z.string(),
});
export type NotifySettings = z.infer<typeof NotifySettings>;

export const deliveryStatuses = ["pending", "sending", "sent", "retrying", "failed"] as const;
export const purposes = ["opened", "reminder", "escalation", "resolved", "test"] as const;

export const Delivery = z.object({
  id: z.string(),
  contact_name: z.string(),
  channel: Channel.nullable(),
  purpose: z.enum(purposes),
  status: z.enum(deliveryStatuses),
  attempts: z.number(),
  created_at: z.string(),
  /** When it is (or was last) due: the next attempt while retrying. */
  due_at: z.string(),
  sent_at: z.string().nullable(),
  last_error: z.string().nullable(),
  /** How many alerts the message holds (a grouped message more than one). */
  alerts: z.number(),
});
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryLog = z.object({ deliveries: z.array(Delivery) });
export type DeliveryLog = z.infer<typeof DeliveryLog>;

export const IdSegment = z.object({ id: z.string().regex(/^[0-9]{1,18}$/, "not a valid id.") });
