import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db, Queryable } from "@/lib/db/db";
import type { AlertKind } from "@/lib/shared/api/attention";
import { type ContactPoint, NotifySettings, RouteInput } from "@/lib/shared/api/notify";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { FakeClock } from "@/lib/testing/fake-clock";
import { startHttpReceiver, startSmtpReceiver } from "@/lib/testing/notify-receivers";
import type { DashboardConfig } from "../config";
import { acknowledgeAlert, insertAlert, resolveAlert } from "../store/attention";
import {
  alertsOfDelivery,
  claimDue,
  contactById,
  contacts,
  enqueue,
  insertTestDelivery,
} from "../store/notify";
import { ackToken, notifyKeys, readAckToken } from "./secrets";
import { LEASE_MS, NotifySender } from "./sender";
import { addContact, addRoute, deliveryLog, notifySettings, sendTest } from "./settings";

/**
 * Alerts reach people: a real SMTP server (smtp-server) and a real HTTP receiver started here,
 * the real store (PGlite, or PostgreSQL in the second pass), an injected clock for every time.
 */

let db: Db;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let hook: Awaited<ReturnType<typeof startHttpReceiver>>;
let clock: FakeClock;
const SECRET = "s".repeat(40);
const keys = notifyKeys({ SESSION_SECRET: SECRET });
const manager = { username: "maria", role: "manager" as const };

const config = () =>
  ({
    SESSION_SECRET: SECRET,
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: smtp.port,
    SMTP_SECURE: "off",
    SMTP_FROM: "Console <console@example.test>",
    PUBLIC_URL: "https://console.example",
  }) as DashboardConfig;

const newSender = () =>
  new NotifySender({
    db,
    keys,
    smtp: { host: "127.0.0.1", port: smtp.port, secure: false, from: "Console <console@example.test>" },
    baseUrl: "https://console.example",
    clock: clock.now,
  });

beforeAll(async () => {
  db = await openTestDashboardStore();
  smtp = await startSmtpReceiver();
  hook = await startHttpReceiver();
});
afterAll(async () => {
  await smtp.close();
  await hook.close();
  await db.close();
});
beforeEach(async () => {
  await db.query(
    "truncate alerts, notify_contacts, notify_routes, notify_deliveries restart identity cascade",
  );
  smtp.mails.length = 0;
  hook.posts.length = 0;
  await hook.up().catch(() => undefined);
  clock = new FakeClock(Date.parse("2026-07-10T20:00:00Z"));
});

const contact = (
  name: string,
  channel: ContactPoint["channel"],
  target: string,
  locale: "en" | "es" = "en",
  role: "manager" | "supervisor" | null = null,
) => addContact(db, config(), manager, { name, channel, target, locale, role }, clock.now());

const route = (input: Partial<RouteInput> & Pick<RouteInput, "contact_ids">) =>
  addRoute(db, manager, RouteInput.parse({ kind: null, group_window_s: 0, ...input }), clock.now());

const open = (kind: AlertKind, subject: string, severity: "warning" | "critical" = "warning") =>
  insertAlert(
    db,
    {
      kind,
      subject,
      severity,
      figures: { device_id: subject, silent_minutes: 16 },
      link: `/terminals/${subject}`,
    },
    clock.now(),
  );

const alertId = async (subject: string) =>
  (await db.query<{ id: string }>("select id::text as id from alerts where subject = $1", [subject]))[0]!.id;

describe("an alert that opens", () => {
  it("reaches each contact point once: an e-mail in its language, a JSON webhook, a Slack-format webhook", async () => {
    const mail = await contact("Gate lead", "email", "lead@example.test");
    const json = await contact("Ops hook", "webhook", hook.url("/ops?token=abc123"), "es");
    const chat = await contact("Chat", "slack", hook.url("/slack/T000/B000/XXXX"));
    await route({ kind: "terminal_quiet", contact_ids: [mail.id, json.id, chat.id] });
    await open("terminal_quiet", "bar-01");
    const sender = newSender();
    expect((await sender.round()).sent).toBe(3);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.to).toEqual(["lead@example.test"]);
    expect(smtp.mails[0]!.subject).toBe("Alert: Terminal quiet (bar-01)");
    expect(smtp.mails[0]!.text).toContain("https://console.example/terminals/bar-01");
    expect(smtp.mails[0]!.text).toContain("bar-01 has recorded nothing for 16 minutes");
    expect(smtp.mails[0]!.text).toContain("https://console.example/alerts/acknowledge?token=");
    const generic = hook.posts.find((p) => p.path.startsWith("/ops"))!;
    expect(generic.body.type).toBe("alert.opened");
    expect(generic.body.subject).toBe("Alerta: Terminal en silencio (bar-01)");
    const [alert] = generic.body.alerts as { kind: string; link: string; acknowledge_link: string }[];
    expect(alert!.kind).toBe("terminal_quiet");
    expect(alert!.link).toBe("https://console.example/terminals/bar-01");
    const token = new URL(alert!.acknowledge_link).searchParams.get("token")!;
    expect(readAckToken(keys, token, clock.now())).toEqual({ alertId: await alertId("bar-01") });
    const slack = hook.posts.find((p) => p.path.startsWith("/slack"))!;
    expect(slack.body.text).toBe("Alert: Terminal quiet (bar-01)");
    expect(JSON.stringify(slack.body.blocks)).toContain(
      "<https://console.example/terminals/bar-01|Terminal quiet>",
    );
    // Later rounds send nothing more.
    clock.advance(60_000);
    await sender.round();
    expect(smtp.mails).toHaveLength(1);
    expect(hook.posts).toHaveLength(2);
  });

  it("the outbox row is written in the transaction that opens the alert: rolled back with it", async () => {
    await db
      .transaction(async (tx) => {
        await insertAlert(
          tx,
          { kind: "refund_spike", subject: "*", severity: "warning", figures: {}, link: "/terminals" },
          clock.now(),
        );
        expect(await tx.query("select 1 from notify_outbox")).toHaveLength(1);
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await db.query("select 1 from notify_outbox")).toHaveLength(0);
  });

  it("goes by kind and severity, and to the contact points of a role", async () => {
    const sup = await contact("Supervisor on duty", "email", "sup@example.test", "en", "supervisor");
    const boss = await contact("Manager", "email", "boss@example.test", "en", "manager");
    await route({ kind: null, min_severity: "critical", roles: ["manager"], contact_ids: [] });
    await route({ kind: "terminal_late", roles: ["supervisor"], contact_ids: [] });
    await open("terminal_quiet", "bar-01", "warning"); // nobody: not critical, not terminal_late
    await open("terminal_late", "bar-02", "warning"); // the supervisor
    await open("sync_failing", "sales", "critical"); // the manager
    await newSender().round();
    expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual(["boss@example.test", "sup@example.test"]);
    expect(sup.role).toBe("supervisor");
    expect(boss.role).toBe("manager");
  });
});

describe("grouping and quiet hours", () => {
  it("a burst of five alerts of one kind within the window is one message; another kind its own", async () => {
    const mail = await contact("Lead", "email", "lead@example.test");
    const json = await contact("Hook", "webhook", hook.url("/hook"));
    await route({ contact_ids: [mail.id, json.id], group_window_s: 60 });
    const sender = newSender();
    for (const bar of ["bar-01", "bar-02", "bar-03", "bar-04", "bar-05"]) {
      await open("terminal_quiet", bar);
      await sender.round();
      clock.advance(5_000);
    }
    await open("refund_spike", "*");
    expect(smtp.mails).toHaveLength(0);
    clock.advance(60_000);
    await sender.round();
    expect(smtp.mails.map((m) => m.subject).sort()).toEqual([
      "5 alerts: Terminal quiet (bar-01) and more",
      "Alert: Refund spike (whole event)",
    ]);
    const grouped = hook.posts.find((p) => p.body.subject === "5 alerts: Terminal quiet (bar-01) and more")!;
    expect((grouped.body.alerts as unknown[]).length).toBe(5);
    const log = await deliveryLog(db, "manager", await alertId("bar-03"));
    expect(log.deliveries.map((d) => [d.contact_name, d.status, d.alerts]).sort()).toEqual([
      ["Hook", "sent", 5],
      ["Lead", "sent", 5],
    ]);
  });

  it("quiet hours hold a message until they end (in the event's time zone)", async () => {
    const mail = await contact("Lead", "email", "lead@example.test");
    await route({ contact_ids: [mail.id], quiet_from: "22:00", quiet_to: "06:00" } as never);
    clock.ms = Date.parse("2026-07-10T23:30:00Z");
    await open("terminal_quiet", "bar-01");
    const sender = newSender();
    await sender.round();
    clock.ms = Date.parse("2026-07-11T05:59:00Z");
    await sender.round();
    expect(smtp.mails).toHaveLength(0);
    clock.ms = Date.parse("2026-07-11T06:00:00Z");
    await sender.round();
    expect(smtp.mails).toHaveLength(1);
  });
});

describe("unacknowledged, then resolved", () => {
  it("a reminder after N minutes, then the escalation to the next contact, then the end to both", async () => {
    const lead = await contact("Lead", "email", "lead@example.test");
    const boss = await contact("Boss hook", "webhook", hook.url("/boss"));
    await route({
      contact_ids: [lead.id],
      remind_after_min: 10,
      escalate_after_min: 20,
      escalate_to: boss.id,
    });
    await open("terminal_quiet", "bar-01");
    const sender = newSender();
    await sender.round();
    expect(smtp.mails.map((m) => m.subject)).toEqual(["Alert: Terminal quiet (bar-01)"]);
    clock.advance(9 * 60_000);
    await sender.round();
    expect(smtp.mails).toHaveLength(1);
    clock.advance(60_000);
    await sender.round();
    expect(smtp.mails.map((m) => m.subject)).toEqual([
      "Alert: Terminal quiet (bar-01)",
      "Reminder, not acknowledged: Terminal quiet (bar-01)",
    ]);
    expect(hook.posts).toHaveLength(0);
    clock.advance(10 * 60_000);
    await sender.round();
    expect(hook.posts.map((p) => p.body.type)).toEqual(["alert.escalation"]);
    clock.advance(30 * 60_000);
    await sender.round();
    expect(smtp.mails).toHaveLength(2);
    expect(hook.posts).toHaveLength(1);
    await resolveAlert(db, await alertId("bar-01"), clock.now());
    await sender.round();
    expect(smtp.mails.at(-1)!.subject).toBe("Resolved: Terminal quiet (bar-01)");
    expect(smtp.mails.at(-1)!.text).not.toContain("acknowledge?token=");
    expect(hook.posts.map((p) => p.body.type)).toEqual(["alert.escalation", "alert.resolved"]);
  });

  it("an acknowledged alert is neither reminded nor escalated", async () => {
    const lead = await contact("Lead", "email", "lead@example.test");
    const boss = await contact("Boss", "email", "boss@example.test");
    await route({
      contact_ids: [lead.id],
      remind_after_min: 10,
      escalate_after_min: 20,
      escalate_to: boss.id,
    });
    await open("terminal_quiet", "bar-01");
    const sender = newSender();
    await sender.round();
    await acknowledgeAlert(db, await alertId("bar-01"), ["terminal_quiet"], {
      userId: "1",
      username: "lead",
      comment: "on it",
      at: clock.now(),
    });
    clock.advance(30 * 60_000);
    await sender.round();
    expect(smtp.mails.map((m) => m.to[0])).toEqual(["lead@example.test"]);
  });
});

describe("delivery you can trust", () => {
  it("the receiver down: retried with backoff, across a restart, and delivered once when it returns", async () => {
    const json = await contact("Hook", "webhook", hook.url("/hook"));
    await route({ contact_ids: [json.id] });
    await hook.down();
    await open("terminal_quiet", "bar-01");
    const first = newSender();
    expect(await first.round()).toMatchObject({ sent: 0, failed: 1 });
    const id = await alertId("bar-01");
    let [d] = (await deliveryLog(db, "manager", id)).deliveries;
    expect(d).toMatchObject({ status: "retrying", attempts: 1 });
    expect(d!.last_error).toMatch(/^webhook unreachable/);
    expect(d!.last_error).not.toContain("/hook");
    expect(Date.parse(d!.due_at) - clock.ms).toBe(30_000);
    clock.advance(20_000);
    expect(await first.round()).toMatchObject({ sent: 0, failed: 0 }); // not due yet
    clock.advance(10_000);
    expect(await first.round()).toMatchObject({ failed: 1 });
    [d] = (await deliveryLog(db, "manager", id)).deliveries;
    expect(d).toMatchObject({ status: "retrying", attempts: 2 });
    expect(Date.parse(d!.due_at) - clock.ms).toBe(60_000); // doubled
    // A restart: the old sender is gone, a new one works on the same store.
    const second = newSender();
    await hook.up();
    clock.advance(59_000);
    await second.round();
    expect(hook.posts).toHaveLength(0);
    clock.advance(1_000);
    await second.round();
    for (let i = 0; i < 3; i++) {
      clock.advance(120_000);
      await second.round();
      await first.round();
    }
    expect(hook.posts).toHaveLength(1);
    expect(hook.posts[0]!.headers["idempotency-key"]).toMatch(/^console-delivery-/);
    [d] = (await deliveryLog(db, "manager", id)).deliveries;
    expect(d).toMatchObject({ status: "sent", attempts: 3, last_error: null });
  });

  it("two senders on one store (two instances) send each message once", async () => {
    const mail = await contact("Lead", "email", "lead@example.test");
    const json = await contact("Hook", "webhook", hook.url("/hook"));
    await route({ contact_ids: [mail.id, json.id] });
    for (const bar of ["bar-01", "bar-02", "bar-03"]) await open("terminal_quiet", bar);
    await open("refund_spike", "*");
    await open("sync_failing", "sales");
    await Promise.all([newSender().round(), newSender().round(), newSender().round()]);
    await newSender().round();
    // Each alert reached each contact point in exactly one message (how the burst was split
    // between concurrent senders may vary; that nothing is sent twice may not).
    const ids = (await db.query<{ id: string }>("select id::text as id from alerts order by id")).map(
      (r) => r.id,
    );
    const posted = hook.posts.flatMap((p) => (p.body.alerts as { id: string }[]).map((a) => a.id));
    expect(posted.sort()).toEqual([...ids].sort());
    const mailed = await db.query<{ n: number }>(
      `select count(*)::int as n from notify_deliveries d join notify_contacts c on c.id = d.contact_id
       where c.channel = 'email' and d.status = 'sent'`,
    );
    expect(smtp.mails).toHaveLength(mailed[0]!.n);
    const empty = await db.query(
      "select id from notify_deliveries d where not exists (select 1 from notify_delivery_alerts x where x.delivery_id = d.id)",
    );
    expect(empty).toEqual([]);
    const told = await db.query<{ n: number }>(
      "select count(*)::int as n from notify_delivery_alerts where purpose = 'opened'",
    );
    expect(told[0]!.n).toBe(10);
  });

  // PGlite has one connection: there a sender's claim waits for the transaction, no race to try.
  it.skipIf(!process.env.DATABASE_URL)(
    "an alert joins a waiting message only while no sender can take it (a claim between the lookup and the insert)",
    async () => {
      const mail = await contact("Lead", "email", "lead@example.test");
      await open("terminal_quiet", "bar-01");
      await open("terminal_quiet", "bar-02");
      const entry = async (subject: string) => ({
        alertId: await alertId(subject),
        contactId: mail.id,
        purpose: "opened",
        kind: "terminal_quiet",
        due: clock.now(),
        now: clock.now(),
      });
      expect(await enqueue(db, await entry("bar-01"))).toBe(true);
      // What each claimed message held when it was taken: a sender sends what it read then.
      const sentWith: string[][] = [];
      const claim = async () => {
        for (const d of await claimDue(db, clock.now(), LEASE_MS, 10))
          sentWith.push((await alertsOfDelivery(db, d.id)).map((a) => a.subject));
      };
      let claimedBetween = false;
      await db.transaction(async (tx) => {
        // Another instance's sender claims due messages right after this transaction found the
        // waiting message, before it adds the second alert to it.
        const racing: Queryable = {
          query: async (sql, params) => {
            const rows = await tx.query(sql, params);
            if (!claimedBetween && /from notify_deliveries\b/.test(sql)) {
              claimedBetween = true;
              await claim();
            }
            return rows as never;
          },
        };
        expect(await enqueue(racing, await entry("bar-02"))).toBe(true);
      });
      expect(claimedBetween).toBe(true);
      await claim();
      expect(sentWith.flat().sort()).toEqual(["bar-01", "bar-02"]);
    },
  );

  it("a message taken by a sender that died mid-send is taken again when its lease ends", async () => {
    const mail = await contact("Lead", "email", "lead@example.test");
    await route({ contact_ids: [mail.id] });
    await open("terminal_quiet", "bar-01");
    // The opening is routed and claimed, then the process dies mid-send:
    const dead = newSender();
    await (dead as unknown as { route(now: Date): Promise<unknown> }).route(clock.now());
    await db.query("update notify_deliveries set status = 'sending', attempts = 1, lease_until = $1", [
      new Date(clock.ms + 120_000).toISOString(),
    ]);
    await newSender().round();
    expect(smtp.mails).toHaveLength(0);
    clock.advance(120_000);
    await newSender().round();
    expect(smtp.mails).toHaveLength(1);
  });

  it("a test still being sent by its request is not taken by the sender as a dead process's", async () => {
    const mail = await contact("Lead", "email", "lead@example.test");
    await insertTestDelivery(db, (await contactById(db, mail.id))!, clock.now(), LEASE_MS);
    clock.advance(5_000);
    await newSender().round();
    expect(smtp.mails).toHaveLength(0);
    clock.advance(LEASE_MS);
    await newSender().round(); // the request died with it: past its lease, the sender sends it once
    expect(smtp.mails).toHaveLength(1);
  });

  it("a test to each contact point: sent, or failed with the reason (never the webhook's URL)", async () => {
    const mail = await contact("Lead", "email", "lead@example.test", "es");
    const good = await sendTest(db, config(), manager, mail.id, clock.now());
    expect(good).toMatchObject({ status: "sent", purpose: "test", contact_name: "Lead" });
    expect(smtp.mails[0]!.subject).toBe("Mensaje de prueba de la consola del evento");
    const dead = await contact("Dead hook", "webhook", "http://127.0.0.1:9/secret-token-path");
    const bad = await sendTest(db, config(), manager, dead.id, clock.now());
    expect(bad.status).toBe("failed");
    expect(bad.last_error).toMatch(/webhook unreachable/);
    expect(bad.last_error).not.toContain("secret-token-path");
    const audit = await db.query<{ action: string; outcome: string }>(
      "select action, outcome from audit_log where action = 'notify.test_contact' order by id",
    );
    expect(audit).toEqual([
      { action: "notify.test_contact", outcome: "ok" },
      { action: "notify.test_contact", outcome: "failed" },
    ]);
  });
});

describe("secrets", () => {
  it("a webhook's URL is sealed at rest and never answered back, nor written to the audit log", async () => {
    const url = hook.url("/services/T0/B0/tok-en-SECRET");
    await contact("Chat", "slack", url);
    const [row] = await contacts(db);
    expect(row!.secret_box).not.toContain("SECRET");
    expect(row!.secret_box).toMatch(/^v1\./);
    const answer = JSON.stringify(NotifySettings.parse(await notifySettings(db, config())));
    expect(answer).not.toContain("SECRET");
    expect(answer).toContain(`"shown_target":"http://127.0.0.1:`);
    const audit = JSON.stringify(await db.query("select * from audit_log"));
    expect(audit).not.toContain("SECRET");
    // Another key cannot read it: a message to it fails, saying why.
    const other = new NotifySender({
      db,
      keys: notifyKeys({ SESSION_SECRET: SECRET, NOTIFY_SECRET_KEY: "k".repeat(32) }),
      smtp: null,
      baseUrl: "https://console.example",
      clock: clock.now,
    });
    await route({ contact_ids: [row!.id] });
    await open("terminal_quiet", "bar-01");
    await other.round();
    const [d] = (await deliveryLog(db, "manager", await alertId("bar-01"))).deliveries;
    expect(d!.last_error).toMatch(/cannot be read with this key/);
  });

  it("an acknowledgement link is signed and expires", () => {
    const now = new Date("2026-07-10T20:00:00Z");
    const token = ackToken(keys, "42", new Date(now.getTime() + 60_000));
    expect(readAckToken(keys, token, now)).toEqual({ alertId: "42" });
    expect(readAckToken(keys, token, new Date(now.getTime() + 61_000))).toEqual({ error: "expired" });
    expect(readAckToken(keys, token.replace(/^42\./, "43."), now)).toEqual({ error: "invalid" });
    expect(readAckToken(notifyKeys({ SESSION_SECRET: "t".repeat(40) }), token, now)).toEqual({
      error: "invalid",
    });
  });

  it("a route naming a contact point that does not exist is refused", async () => {
    await expect(route({ contact_ids: ["999"] })).rejects.toThrow(/No contact point 999/);
  });
});
