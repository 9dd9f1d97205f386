import { expect, type Page, test } from "@playwright/test";
import type { AlertsView, TerminalRow, TerminalsView } from "../lib/shared/api/attention";
import type { NotifySettings } from "../lib/shared/api/notify";
import { translatorFor } from "../lib/shared/i18n/messages";
import { startHttpReceiver, startSmtpReceiver } from "../lib/testing/notify-receivers";
import { E2E_SMTP_PORT } from "../playwright.config";
import {
  advanceClock,
  isSimulatorStand,
  SAME_ORIGIN,
  SHARED_SANDBOX,
  sandboxControl,
  signIn,
  syncNow,
  waitForFirstSync,
} from "./support";

/**
 * Alerts that find people (issue 29), against the sandbox: a manager adds an e-mail contact point
 * (the SMTP server this spec starts, which the sandbox's dashboard is configured to use) and a
 * webhook (this spec's HTTP receiver), sends each a test, routes "Terminal quiet" to both, takes a
 * selling terminal offline through the simulator, and sees the messages in the alert's delivery log;
 * the webhook's acknowledgement link opens the alert after sign-in.
 */

const admin = (path: string) => sandboxControl(`/simulator${path}`, { minutes: 30 });

async function getJson<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(path, { timeout: 30_000 });
  expect(res.ok(), path).toBe(true);
  return (await res.json()) as T;
}

/** The live selling terminal that turns quiet soonest. */
async function sellingTerminal(page: Page): Promise<TerminalRow> {
  let chosen: TerminalRow | undefined;
  await expect
    .poll(
      async () => {
        chosen = (await getJson<TerminalsView>(page, "/api/terminals")).terminals
          .filter((t) => ["live", "back"].includes(t.state) && isSimulatorStand(t.device_id))
          .filter((t) => t.quiet_after_s !== null)
          .sort((a, b) => a.quiet_after_s! - b.quiet_after_s!)[0];
        return chosen?.device_id;
      },
      { timeout: 60_000, intervals: [2_000] },
    )
    .toBeDefined();
  return chosen!;
}

test.describe.configure({ lock: SHARED_SANDBOX, timeout: 600_000 });

test("a manager routes terminal alerts to an e-mail and a webhook, tests them, and sees the delivery log", async ({
  page,
}) => {
  // Where the spec's time goes, in its output (a control may wait for a whole sync cycle).
  const started = performance.now();
  const step = (what: string) =>
    console.log(`[notify ${((performance.now() - started) / 1000).toFixed(1)} s] ${what}`);
  const smtp = await startSmtpReceiver(E2E_SMTP_PORT);
  const hook = await startHttpReceiver();
  let offline: string | undefined;
  try {
    await signIn(page, "manager");
    await waitForFirstSync(page);
    step("signed in, first sync done");

    await page.goto("/alerts");
    await page.getByRole("link", { name: "Contact points and routes" }).click();
    await expect(
      page.getByRole("heading", { name: "Notifications: contact points and routes" }),
    ).toBeVisible();

    // Two contact points: an e-mail address, and a webhook whose URL holds a token.
    const addContact = page.getByRole("form", { name: "Add a contact point" });
    await addContact.getByLabel("Name").fill("Manager on duty");
    await addContact.getByLabel("E-mail address or webhook URL").fill("duty@festival.test");
    await addContact.getByRole("button", { name: "Add" }).click();
    await expect(page.getByTestId("contact-Manager on duty")).toContainText("duty@festival.test");
    await addContact.getByLabel("Name").fill("Ops webhook");
    await addContact.getByLabel("Channel").selectOption("webhook");
    await addContact.getByLabel("E-mail address or webhook URL").fill(hook.url("/hooks/T123/tok-SECRET-42"));
    await addContact.getByLabel("Language of its messages").selectOption("es");
    await addContact.getByRole("button", { name: "Add" }).click();
    const webhookRow = page.getByTestId("contact-Ops webhook");
    await expect(webhookRow).toContainText("http://127.0.0.1:");
    // The token is never shown back: not on the screen, not in the answer.
    await expect(page.locator("body")).not.toContainText("SECRET");
    expect(await (await page.request.get("/api/notify")).text()).not.toContain("SECRET");
    await page.screenshot({ path: ".test-results/notify-contacts.png", fullPage: true });

    // A test to each.
    const mailRow = page.getByTestId("contact-Manager on duty");
    await mailRow.getByRole("button", { name: "Send a test" }).click();
    await expect(mailRow.getByTestId("test-outcome")).toHaveText("Test sent to Manager on duty.");
    expect(smtp.mails.map((m) => [m.to[0], m.subject])).toEqual([
      ["duty@festival.test", "Test message from the event console"],
    ]);
    await webhookRow.getByRole("button", { name: "Send a test" }).click();
    await expect(webhookRow.getByTestId("test-outcome")).toHaveText("Test sent to Ops webhook.");
    expect(hook.posts.map((p) => [p.path, p.body.type])).toEqual([
      ["/hooks/T123/tok-SECRET-42", "alert.test"],
    ]);

    // A route: terminals gone quiet, to both, no grouping wait.
    const addRoute = page.getByRole("form", { name: "Add a route" });
    await addRoute.getByLabel("Alert kind").selectOption("terminal_quiet");
    await addRoute.getByRole("checkbox", { name: "Manager on duty" }).check();
    await addRoute.getByRole("checkbox", { name: "Ops webhook" }).check();
    await addRoute.getByLabel("Group a burst within (seconds)").fill("0");
    await addRoute.getByRole("button", { name: "Add" }).click();
    await expect(page.getByTestId("route")).toContainText(
      "Terminal quiet, Info and up → Manager on duty, Ops webhook",
    );

    // The sandbox raises it: a selling terminal loses its connection. Any new
    // "Terminal quiet" alert that opens from now on is routed (the simulator's stands go quiet too).
    const before = new Set(
      (await getJson<AlertsView>(page, "/api/alerts")).alerts
        .filter((a) => a.state === "open")
        .map((a) => a.id),
    );
    const terminal = await sellingTerminal(page);
    step(`taking ${terminal.device_id} offline (quiet after ${terminal.quiet_after_s} s)`);
    await admin(`/terminals/${terminal.device_id}/offline`);
    offline = terminal.device_id;
    // The alert of the terminal taken offline: it stays open until the terminal is back (a stand of
    // the simulator that went quiet by itself may sell again and resolve its alert at any moment).
    const alertOf = async () =>
      (await getJson<AlertsView>(page, "/api/alerts")).alerts.find(
        (a) =>
          a.kind === "terminal_quiet" &&
          a.subject === terminal.device_id &&
          a.state === "open" &&
          !before.has(a.id),
      );
    // Past its quiet threshold, then past the alert's (30 s here): a cycle after each judges.
    await advanceClock(terminal.quiet_after_s! + 5);
    await syncNow();
    step("a sync cycle past its quiet threshold");
    await advanceClock(35);
    await expect
      .poll(
        async () => {
          await syncNow();
          return alertOf();
        },
        { timeout: 60_000 },
      )
      .toBeDefined();
    const DEVICE = (await alertOf())!.subject;
    step(`the alert of ${DEVICE} opened`);
    const { kind } = (await alertOf())!;
    const title = {
      en: translatorFor("en")(`alerts.kind.${kind}`),
      es: translatorFor("es")(`alerts.kind.${kind}`),
    };

    // One message each: the e-mail in English, the webhook in Spanish, with the links. Another
    // terminal of the simulator may go quiet in the same cycle: the two openings are then one
    // grouped message ("2 alerts: …"), which must carry this alert exactly once.
    const mailsOf = () =>
      smtp.mails.filter(
        (m) =>
          m.subject.includes(title.en) && m.text.includes(DEVICE) && !/Reminder|Resolved/.test(m.subject),
      );
    await expect.poll(() => mailsOf().length, { timeout: 30_000 }).toBe(1);
    const hookAlerts = () =>
      hook.posts
        .filter((p) => p.body.type === "alert.opened")
        .flatMap((p) =>
          (p.body.alerts as { subject: string; link: string; acknowledge_link: string }[]).map((a) => ({
            post: p,
            alert: a,
          })),
        )
        .filter((x) => x.alert.subject === DEVICE);
    await expect.poll(() => hookAlerts().length, { timeout: 30_000 }).toBe(1);
    const [{ post: opened, alert: sent }] = hookAlerts() as [ReturnType<typeof hookAlerts>[number]];
    expect(opened.body.subject).toContain(title.es);
    expect(opened.body.subject).toMatch(/^(Alerta: |\d+ alertas: )/);
    expect(sent.link).toMatch(new RegExp(`/terminals/${DEVICE}$`));

    step("one e-mail and one webhook post");
    // The delivery log on /alerts.
    await page.goto("/alerts");
    const card = page.getByTestId(`alert-${kind}-${DEVICE}`).and(page.locator("[data-state=open]"));
    await card.getByTestId("delivery-log").locator("summary").click();
    const deliveries = card.getByTestId("delivery");
    await expect(deliveries).toHaveCount(2);
    await expect(card.getByTestId("delivery-log")).toContainText("opened to Manager on duty: sent");
    await expect(card.getByTestId("delivery-log")).toContainText("opened to Ops webhook: sent");
    await page.screenshot({ path: ".test-results/notify-delivery-log.png", fullPage: true });

    // The acknowledgement link opens the alert's acknowledgement screen, after sign-in only.
    const ack = new URL(sent.acknowledge_link);
    const stranger = await page.context().browser()!.newPage();
    await stranger.goto(new URL(`${ack.pathname}${ack.search}`, page.url()).toString());
    await expect(stranger).toHaveURL(/\/login\?next=%2Falerts%2Facknowledge/);
    await stranger.getByLabel("Username").fill("manager");
    await stranger.getByLabel("Password").fill("manager-demo-pass");
    await stranger.getByRole("button", { name: "Sign in" }).click();
    await expect(stranger).toHaveURL(/\/alerts\/acknowledge\?token=/);
    await expect(stranger.getByRole("heading", { name: "Acknowledge this alert" })).toBeVisible();
    await stranger.close();
    await page.goto(`${ack.pathname}${ack.search}`);
    await expect(page.getByRole("heading", { name: "Acknowledge this alert" })).toBeVisible();
    await expect(page.getByTestId(`alert-${kind}-${DEVICE}`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Acknowledge" })).toBeVisible();
    // A forged token opens nothing.
    await page.goto(
      `${ack.pathname}?token=${encodeURIComponent(ack.searchParams.get("token")!.replace(/^(\d+)/, "9$1"))}`,
    );
    await expect(page.getByText("This acknowledgement link is not valid.")).toBeVisible();

    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/alerts/notifications");
    await expect(page.getByTestId("route")).toBeVisible();
    await page.screenshot({ path: ".test-results/notify-phone.png", fullPage: true });
  } finally {
    // The terminal comes back for the specs after this one, whatever happened here.
    if (offline) await admin(`/terminals/${offline}/online`).catch((err: unknown) => console.error(err));
    // What the spec made goes with it (later alerts are routed to no receiver of a spec that ended),
    // and a failure to remove it is told without hiding the spec's own failure.
    await removeNotifySettings(page).catch((err: unknown) => console.error(`[notify.spec] cleanup: ${err}`));
    await smtp.close();
    await hook.close();
  }
});

async function removeNotifySettings(page: Page) {
  const bounded = { headers: SAME_ORIGIN, timeout: 30_000 };
  const { contacts, routes } = await getJson<NotifySettings>(page, "/api/notify");
  for (const route of routes) await page.request.delete(`/api/notify/routes/${route.id}`, bounded);
  for (const contact of contacts) await page.request.delete(`/api/notify/contacts/${contact.id}`, bounded);
}
