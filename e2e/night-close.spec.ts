import { mkdirSync, writeFileSync } from "node:fs";
import { type Browser, devices, expect, type Page, test } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import type { NightReport, Signoff } from "../lib/shared/api/night";
import { allDenominations } from "../lib/shared/denominations";
import { decimalString, formatMoney } from "../lib/shared/format/money";
import { expectNoViolations, SAME_ORIGIN, SHARED_SANDBOX, sandboxNow, signIn } from "./support";

/**
 * Closing a night as a cash supervisor, then a manager (issue 24), against the sandbox: the running
 * night is counted as a draft but cannot be signed; on a closed night an opening float, a count in
 * notes and coins short beyond the tolerance, a comment, a confirmation for the lines left blank, a
 * double click that stores one sign-off; a manager approves it; the night report (PDF, read back with
 * a PDF text extractor; the print view) and the CSV hold what was counted.
 */

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-24";
const plain = (s: string | null) => (s ?? "").replace(/[\u00a0\u202f]/g, " ").trim();
const eur = (minor: number, currency: string) => plain(formatMoney(minor, currency));

async function report(page: Page, dayId?: string): Promise<NightReport> {
  const res = await page.request.get(`/api/reconciliation${dayId ? `?day_id=${dayId}` : ""}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as NightReport;
}

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Pieces per note and coin making `amount` (largest first). */
function piecesOf(amount: number, currency: string): [number, number][] {
  let rest = amount;
  return allDenominations(currency).flatMap((d) => {
    const n = Math.floor(rest / d);
    rest -= n * d;
    return n > 0 ? [[d, n] as [number, number]] : [];
  });
}

/** Signs the supervisor in on a desktop and opens the night screen; answers the event's days. */
async function openNights(page: Page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, "supervisor");
  await page.goto("/reconciliation");
  await expect(page.getByTestId("as-of")).toHaveText(/Data as of \d\d:\d\d:\d\d/, { timeout: 180_000 });
  return (await report(page)).days;
}

async function asManager(browser: Browser) {
  // A context of its own (axe-core needs one): another person's browser.
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(page, "manager");
  return page;
}

test.describe.configure({ lock: SHARED_SANDBOX, timeout: 420_000 });

test("a night not over yet: counted and saved as a draft, its sign-off disabled with the reason", async ({
  page,
}) => {
  const days = await openNights(page);
  const now = (await sandboxNow()).getTime();
  const open = days.find((d) => Date.parse(d.ends_at) > now)!;
  expect(open).toBeDefined();
  await page.getByRole("combobox", { name: /^Event day/ }).selectOption(open.id);
  await expect(page.getByTestId("status-running")).toContainText("ends at 06:00");

  // A float for a desk before (or during) the night: its cash line appears, expecting the float.
  await page.getByLabel("Desk", { exact: true }).fill("e2e-desk-running");
  await page.getByLabel("Float", { exact: true }).fill("80");
  await page.getByLabel("Float", { exact: true }).press("Enter");
  await expect(page.getByTestId("float-e2e-desk-running")).toHaveText("€80.00");
  const input = page.getByLabel("Counted cash at e2e-desk-running");
  await expect(input).toHaveAttribute("placeholder", "not counted");
  await input.fill("79.50");

  const button = page.getByRole("button", { name: "Sign off this night" });
  await expect(button).toBeDisabled();
  await expect(page.getByTestId("signoff-blocked")).toContainText("The night ends at 06:00");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Draft saved.")).toBeVisible();
  await page.goto(`/reconciliation?day_id=${open.id}`);
  await expect(page.getByLabel("Counted cash at e2e-desk-running")).toHaveValue("79.50");
  await expect(page.getByTestId("status-counted")).toContainText("1 of");
  // The server refuses too.
  const refused = await page.request.post("/api/reconciliation/signoff", {
    data: { day_id: open.id, idempotency_key: crypto.randomUUID(), counted: [] },
    headers: SAME_ORIGIN,
  });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error.code).toBe("night_not_ended");
  await shot(page, "night-running-desktop");
});

test("float, notes and coins, a variance beyond the tolerance, approved by a manager; the report and the CSV hold the count", async ({
  page,
  browser,
}) => {
  // A closed night (ended, the next one started), the latest of them: reconciliation.spec signs the first.
  const days = await openNights(page);
  const now = (await sandboxNow()).getTime();
  const closed = days.filter(
    (d, i) => Date.parse(d.ends_at) <= now && Date.parse(days[i + 1]?.starts_at ?? "") <= now,
  );
  const night = closed.at(-1)!;
  expect(night).toBeDefined();
  await page.getByRole("combobox", { name: /^Event day/ }).selectOption(night.id);
  await expect(page.getByTestId("night-window")).toContainText(night.name);
  await expect(page.getByTestId("status-checksum")).toContainText("Matches upstream", { timeout: 180_000 });
  const before = await report(page, night.id);
  const currency = before.event!.currency;
  const signedBefore = before.signoffs.length;
  console.log(`${night.name}: ${before.figures!.expected.length} lines to count`);

  // The opening float of the busiest cash desk.
  const cash = before.figures!.expected.filter((e) => e.payment_method === "cash" && e.device_id);
  const desk = cash.sort((a, b) => b.expected - a.expected)[0]!;
  const D = desk.device_id;
  // The floats of a night that has ended are folded away: unfold them.
  await expect(page.getByTestId("floats-summary")).toContainText("No float entered yet");
  await page.getByTestId("floats-summary").click();
  await page.getByLabel(`Float at ${D}`).fill("150");
  await page.getByLabel(`Float at ${D}`).press("Enter");
  await expect(page.getByTestId(`float-${D}`)).toHaveText(eur(15_000, currency));
  const expected = desk.expected - desk.float + 15_000;
  await expect(page.getByTestId(`expected-${D}|cash`)).toHaveText(eur(expected, currency));

  // Counted in notes and coins: 7.00 short, beyond the 5.00 a line may be.
  await page.getByRole("button", { name: `Count notes and coins at ${D}` }).click();
  const counted = expected - 700;
  for (const [value, pieces] of piecesOf(counted, currency))
    await page
      .getByLabel(`${value >= 500 ? "Notes" : "Coins"} of ${formatMoney(value, currency)} at ${D}`)
      .fill(String(pieces));
  await expect(page.getByTestId(`pieces-total-${D}|cash`)).toHaveText(`Total ${eur(counted, currency)}`);
  await expect(page.getByTestId(`variance-${D}|cash`)).toHaveAttribute("data-beyond", "true");
  // A card line counted exactly, as a typed total.
  const card = before.figures!.expected.find((e) => e.payment_method === "card" && e.device_id)!;
  await page.getByLabel(`Counted card at ${card.device_id}`).fill(decimalString(card.expected, currency));
  await expect(page.getByTestId("signoff-needs-approval")).toBeVisible();
  const signButton = page.getByRole("button", {
    name: signedBefore ? "Sign off again" : "Sign off this night",
  });
  await expect(signButton).toBeDisabled();
  await expect(page.getByTestId("signoff-blocked")).toContainText("A variance is beyond the tolerance");
  await page.getByLabel(/^Comment/).fill("One 5 and two 1 notes missing at the desk; recount tomorrow");
  await expectNoViolations(page, "the night with a count in notes and coins");
  await expect(page.getByTestId("status-counted")).toContainText(
    `2 of ${before.figures!.expected.length} lines`,
  );
  await shot(page, "night-counting-desktop");

  // Lines left blank are named first; the double click on "Sign off anyway" stores one sign-off.
  await signButton.click();
  await expect(page.getByTestId("signoff-confirm")).toContainText(
    `2 of ${before.figures!.expected.length} lines counted: sign off anyway?`,
  );
  await page.getByRole("button", { name: "Sign off anyway" }).dblclick();
  await expect(page.getByTestId("signoff-done")).toContainText("a manager must approve it");
  const history = page.getByRole("region", { name: "Sign-off history" });
  await expect(history.locator("tbody tr")).toHaveCount(signedBefore + 1);
  const afterSign = await report(page, night.id);
  expect(afterSign.signoffs).toHaveLength(signedBefore + 1);
  const signoff = afterSign.signoffs[0]!;
  expect(signoff).toMatchObject({
    status: "awaiting_approval",
    needs_approval: true,
    username: "supervisor",
  });
  expect(signoff.counted.find((c) => c.device_id === D)).toMatchObject({
    counted,
    variance: -700,
    denominations: Object.fromEntries(piecesOf(counted, currency).map(([v, n]) => [String(v), n])),
  });

  // The same form twice at once (one idempotency key): one row, the replay answers it. Two forms
  // from the same basis at once: one row, the other is told who signed.
  const body = { day_id: night.id, idempotency_key: crypto.randomUUID(), based_on: signoff.id, counted: [] };
  const [a, b] = await Promise.all(
    [0, 1].map(() => page.request.post("/api/reconciliation/signoff", { data: body, headers: SAME_ORIGIN })),
  );
  expect([a!.status(), b!.status()].sort()).toEqual([200, 201]);
  expect(((await a!.json()) as Signoff).id).toBe(((await b!.json()) as Signoff).id);
  const stale = await page.request.post("/api/reconciliation/signoff", {
    data: { ...body, idempotency_key: crypto.randomUUID() },
    headers: SAME_ORIGIN,
  });
  expect(stale.status()).toBe(409);
  expect((await stale.json()).error).toMatchObject({ code: "already_signed" });
  expect((await stale.json()).error.message).toContain("supervisor signed this night off at");
  // That sign-off (no count) replaced ours: sign ours again on top of it, from the draft-free form.
  const replaced = await report(page, night.id);
  expect(replaced.signoffs).toHaveLength(signedBefore + 2);
  const resign = await page.request.post("/api/reconciliation/signoff", {
    data: {
      day_id: night.id,
      idempotency_key: crypto.randomUUID(),
      based_on: replaced.signoffs[0]!.id,
      comment: signoff.comment,
      counted: signoff.counted.map((c) =>
        c.denominations
          ? { device_id: c.device_id, payment_method: c.payment_method, denominations: c.denominations }
          : { device_id: c.device_id, payment_method: c.payment_method, counted: c.counted },
      ),
    },
    headers: SAME_ORIGIN,
  });
  expect(resign.status()).toBe(201);
  const awaiting = (await resign.json()) as Signoff;
  expect(awaiting.status).toBe("awaiting_approval");

  // A supervisor may not approve (the permission is a manager's); a manager, not the signer, does.
  const denied = await page.request.post(`/api/reconciliation/signoffs/${awaiting.id}/approve`, {
    data: {},
    headers: SAME_ORIGIN,
  });
  expect(denied.status()).toBe(403);
  const manager = await asManager(browser);
  await manager.goto(`/reconciliation?day_id=${night.id}`);
  const managerHistory = manager.getByRole("region", { name: "Sign-off history" });
  await expect(manager.getByTestId(`signoff-status-${awaiting.id}`)).toHaveAttribute(
    "data-status",
    "awaiting_approval",
    { timeout: 60_000 },
  );
  await managerHistory.getByLabel("Approval comment").fill("Counted again with the supervisor: agreed");
  await managerHistory.getByRole("button", { name: "Approve" }).click();
  await expect(manager.getByTestId(`signoff-status-${awaiting.id}`)).toHaveAttribute("data-status", "final");
  await expect(manager.getByTestId(`signoff-status-${awaiting.id}`)).toContainText("approved by manager");
  await expect(manager.getByTestId("status-signoff")).toContainText("Signed by supervisor");

  // The night report as a PDF, made on the server from the frozen snapshot: two A4 pages at most.
  const pdfLink = managerHistory.getByRole("link", { name: `PDF of sign-off ${awaiting.id}` });
  const pdfResponse = await manager.request.get((await pdfLink.getAttribute("href")) as string);
  expect(pdfResponse.headers()["content-type"]).toBe("application/pdf");
  const pdf = new Uint8Array(await pdfResponse.body());
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(`${SHOTS}/night-report.pdf`, pdf);
  const { totalPages, text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
  const words = text.replace(/\s+/g, " ");
  expect(totalPages).toBeLessThanOrEqual(2);
  expect(words).toContain(`Night report: ${night.name}`);
  expect(words).toContain(eur(counted, currency)); // counted
  expect(words).toContain(`${eur(-700, currency)} !`); // the variance, beyond the tolerance
  expect(words).toContain(eur(expected, currency)); // expected, the float included
  expect(words).toContain(eur(15_000, currency)); // the float
  expect(words).toContain(`${D}: `); // the notes and coins counted
  expect(words).toContain("Signed off by supervisor");
  expect(words).toContain("Approved by manager");
  expect(words).toContain("Counted again with the supervisor: agreed");
  expect(words).toContain("Checksum at sign-off: matched the upstream summary");
  expect(words).toContain(`2 of ${before.figures!.expected.length} lines counted`);
  expect(words).toContain("Manager (approval): manager");

  // The CSV holds the counted figures and the variances of the latest sign-off.
  const csv = await manager.request.get(`/api/reconciliation/export?day_id=${night.id}`);
  const lines = (await csv.text()).split("\r\n");
  expect(lines).toContain(`counted_cash,${D},${D},,${decimalString(counted, currency)}`);
  expect(lines).toContain(`variance_cash,${D},${D} (beyond tolerance),,-7.00`);
  expect(lines).toContain(`float,${D},Opening float,,150.00`);
  expect(lines.some((l) => l.startsWith(`counted_pieces,${D}:`))).toBe(true);

  // The print view: from the snapshot, the console's navigation hidden when printed.
  await manager.getByRole("link", { name: `Print view of sign-off ${awaiting.id}` }).click();
  await expect(manager.getByTestId("night-report")).toContainText(`Night report: ${night.name}`);
  await expect(manager.getByTestId("report-status")).toHaveText("Final");
  await expect(manager.getByTestId(`report-line-${D}|cash`)).toContainText(eur(-700, currency));
  await shot(manager, "night-report-print-view-desktop");
  await expectNoViolations(manager, "the night report's print view");
  await manager.emulateMedia({ media: "print" });
  await expect(manager.getByRole("navigation", { name: "Screens" })).toBeHidden();
  await manager.pdf({ path: `${SHOTS}/night-report-printed.pdf`, format: "A4" }).catch(() => undefined);
  await manager.emulateMedia({ media: "screen" });
  await manager.context().close();

  // The supervisor's screen shows the night final, and a phone shows the same. Opened by its
  // address: a reload shows the default night, which at some hours is another one (signed by
  // e2e/attention.spec.ts).
  await page.goto(`/reconciliation?day_id=${night.id}`);
  await expect(page.getByTestId("status-signoff")).toContainText("Signed by supervisor");
  await shot(page, "night-signed-desktop");
  const phone = await (await browser.newContext({ ...devices["iPhone 13"] })).newPage();
  await signIn(phone, "supervisor");
  await phone.goto(`/reconciliation?day_id=${night.id}`);
  await expect(phone.getByTestId("night-status")).toBeVisible({ timeout: 60_000 });
  await shot(phone, "night-phone");
  await phone.goto(`/reconciliation/report/${awaiting.id}`);
  await expect(phone.getByTestId("night-report")).toBeVisible();
  await shot(phone, "night-report-phone");
  await expectNoViolations(phone, "the night report's print view on a phone");
  await phone.context().close();
});
