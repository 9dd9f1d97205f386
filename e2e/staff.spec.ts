import { expect, type Page, test } from "@playwright/test";
import {
  createFixtureKey,
  createSandboxTicket,
  nameDesk,
  openScreen,
  runCode,
  SAME_ORIGIN,
  SHARED_SANDBOX,
  sandboxApi,
  sandboxNow,
  signIn,
  waitUntilNameFound,
} from "./support";

// The demo accounts and the sandbox clock: one such spec at a time (e2e/support.ts).
test.describe.configure({ lock: SHARED_SANDBOX });

/**
 * The staff tools end to end: the real Integration API (sandbox) behind the dashboard. The test
 * sets up its own tickets through the API with a key of its own (so the dashboard's quota is not
 * spent on fixtures), then drives the screens like staff would.
 */

const RUN = runCode("E2E");
let key = "";
let ticketTypes: { id: string; name: string }[] = [];
let days: { id: string; name: string }[] = [];
/** The sandbox's instant when the spec began, less a margin: the wristbands it changes are updated after it. */
let startedAt = "";

const api = <T>(path: string, init: RequestInit = {}) => sandboxApi<T>(key, path, init);

type Wristband = { nfc: string; status: string; balance: number; promo_balance: number };
const wristband = async (nfc: string) => (await api<Wristband>(`/v1/wristbands/${nfc}`)).body;

/** A fresh ticket; with `nfc`, checked in with a new wristband (its person has received no bonus yet). */
async function freshTicket(suffix: string, nfc?: string, name = `Guest ${suffix}`): Promise<string> {
  const code = `${RUN}-${suffix}`;
  await createSandboxTicket(key, {
    code,
    ticketTypeId: ticketTypes[0]!.id,
    name,
    email: `${suffix.toLowerCase()}@${RUN.toLowerCase()}.example.com`,
    dayIds: days.map((d) => d.id),
  });
  if (nfc) {
    const checked = await api(`/v1/tickets/${code}/check-in`, {
      method: "POST",
      body: JSON.stringify({ wristband: { nfc } }),
    });
    expect(checked.status).toBe(200);
  }
  return code;
}

async function allTicketsSince(): Promise<{ code: string; attendee: { email: string } }[]> {
  const out: { code: string; attendee: { email: string } }[] = [];
  let cursor: string | null = null;
  for (;;) {
    const qs = new URLSearchParams({ limit: "200", updated_since: startedAt });
    if (cursor) qs.set("starting_after", cursor);
    const page = await api<{
      data: { id: string; code: string; attendee: { email: string } }[];
      has_more: boolean;
      next_cursor: string | null;
    }>(`/v1/tickets?${qs}`);
    out.push(...page.body.data);
    if (!page.body.has_more) return out;
    cursor = page.body.next_cursor;
  }
}

test.beforeAll(async () => {
  startedAt = new Date((await sandboxNow()).getTime() - 5_000).toISOString();
  key = await createFixtureKey("e2e fixtures");
  ticketTypes = (await api<{ data: { id: string; name: string }[] }>("/v1/ticket-types")).body.data;
  days = (await api<{ data: { id: string; name: string }[] }>("/v1/days")).body.data;
});

async function openDesk(page: Page, nfc: string) {
  await openScreen(page, "Top-up desk");
  await nameDesk(page);
  await page.getByLabel("Wristband code").fill(nfc);
  await page.getByRole("button", { name: "Load wristband" }).click();
  await expect(page.getByTestId("desk-paid-balance")).toBeVisible();
}

test("find a ticket by code in the header search and check it in", async ({ page }) => {
  const code = await freshTicket("CHECKIN");
  const nfc = `${RUN}-NFC-1`;
  await signIn(page, "staff");
  await page.getByLabel("Find a code").fill(code);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${code}$`));
  await expect(page.getByRole("heading", { name: `Ticket ${code}` })).toBeVisible();
  await expect(page.getByTestId("status")).toHaveText("active");
  await expect(page.getByText(`Guest CHECKIN · checkin@${RUN.toLowerCase()}.example.com`)).toBeVisible();
  // Staff may check in but not cancel.
  await expect(page.getByRole("button", { name: "Cancel ticket…" })).toHaveCount(0);
  await page.getByLabel("Wristband NFC code (enter or scan)").fill(nfc);
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(page.getByTestId("status")).toHaveText("used");
  await expect(page.getByRole("link", { name: nfc })).toBeVisible();
  // The wristband code finds the wristband.
  await page.getByLabel("Find a code").fill(nfc);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("heading", { name: `Wristband ${nfc}` })).toBeVisible();
  await expect(page.getByTestId("paid-balance")).toHaveText("€0.00");
  await expect(page.getByRole("link", { name: code })).toBeVisible();
  expect((await api<{ status: string }>(`/v1/tickets/${code}`)).body.status).toBe("used");
});

test("a name with a right-to-left override is shown with the control escaped, not obeyed", async ({
  page,
}) => {
  const code = await freshTicket("BIDI", undefined, "Ana \u202Eztrep");
  await signIn(page, "staff");
  await page.goto(`/tickets/${code}`);
  await expect(page.getByText("Ana ⟦U+202E⟧ztrep")).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText("\u202E");
});

test("a wrong code says plainly that nothing has it, and no earlier results stay on screen", async ({
  page,
}) => {
  test.setTimeout(420_000);
  const nothing = `Nothing with the code ${RUN}-NOTHING: no ticket, no wristband.`;
  const search = async (text: string) => {
    await page.getByLabel("Find a code").fill(text);
    await page.getByRole("button", { name: "Search", exact: true }).click();
  };
  await signIn(page, "staff");
  await search(`${RUN}-NOTHING`);
  await expect(page).toHaveURL(/\/search\?q=/);
  await expect(page.getByRole("main")).toContainText(nothing);
  // Names found, then a search that fails: its message, and none of the names.
  await waitUntilNameFound(page, "garcia");
  await search("garcia");
  const results = page.getByRole("region", { name: /Tickets of attendees named “garcia”/ });
  await expect(results).toBeVisible();
  await search(`${RUN}-NOTHING`);
  await expect(page.getByRole("main")).toContainText(nothing);
  await expect(results).toHaveCount(0);
  await expect(page.getByLabel("Find a code")).toHaveValue(`${RUN}-NOTHING`);
  // From another screen the message is said under the box, and the screen stays.
  await page.goto("/tickets");
  await search(`${RUN}-NOTHING`);
  await expect(page.getByRole("alert").filter({ hasText: "Nothing with" })).toHaveText(nothing);
  await expect(page).toHaveURL(/\/tickets$/);
});

test("a manager cancels a ticket after a confirmation; the list filters by status", async ({ page }) => {
  const code = await freshTicket("CANCEL");
  await signIn(page, "manager");
  await page.goto(`/tickets/${code}`);
  await page.getByRole("button", { name: "Cancel ticket…" }).click();
  await expect(page.getByRole("alertdialog", { name: "Confirm cancellation" })).toContainText(
    `Cancel ticket ${code}?`,
  );
  await page.getByRole("button", { name: "Yes, cancel the ticket" }).click();
  await expect(page.getByTestId("status")).toHaveText("inactive");
  await expect(page.getByRole("button", { name: "Check in" })).toHaveCount(0);
  expect((await api<{ status: string }>(`/v1/tickets/${code}`)).body.status).toBe("inactive");
  await page.goto("/tickets");
  await page.getByLabel("Status").selectOption("inactive");
  await expect(page.getByRole("table").getByRole("row").nth(1)).toBeVisible();
  const statuses = await page.getByRole("table").getByTestId("status").allTextContents();
  expect(new Set(statuses)).toEqual(new Set(["inactive"]));
});

test("a top-up with a bonus: a lost answer, a retry and a double submit charge once", async ({ page }) => {
  const nfc = `${RUN}-NFC-TOPUP`;
  await freshTicket("TOPUP", nfc);
  await signIn(page, "supervisor");
  await openDesk(page, nfc);
  await page.getByRole("button", { name: /^€50\.00/ }).click();
  await expect(page.getByTestId("bonus-amount")).not.toHaveText("none");
  const bonusText = (await page.getByTestId("bonus-amount").textContent())!;
  await expect(page.getByTestId("bonus-next")).toContainText("more for a");
  await page.getByRole("button", { name: "Review top-up" }).click();

  // The first answer is lost on the way back (the upstream did charge).
  let posts = 0;
  await page.route("**/api/desk/topups", async (route) => {
    posts++;
    if (posts === 1) {
      await route.fetch();
      await route.abort("failed");
    } else await route.continue();
  });
  await page.getByRole("button", { name: "Confirm" }).dblclick();
  await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
  await page.getByRole("button", { name: "Try again" }).click();
  const receipt = page.getByTestId("receipt");
  await expect(receipt).toContainText("€50.00");
  await expect(receipt).toContainText(bonusText);
  await expect(receipt).toContainText("€0.00 → €50.00");
  await expect(receipt).toContainText("E2E desk 1");
  const after = await wristband(nfc);
  expect(after.balance).toBe(5000);
  expect(`€${(after.promo_balance / 100).toFixed(2)}`).toBe(bonusText);
  await expect(page.getByTestId("desk-paid-balance")).toHaveText("€50.00");

  // The route handler itself: the same Idempotency-Key twice is one top-up.
  const idem = crypto.randomUUID();
  const body = {
    code: nfc,
    amount: 1000,
    payment_method: "cash",
    bonus_amount: 0,
    bonus_rule: null,
    idempotency_key: idem,
    desk: "E2E desk 1",
  };
  const [a, b] = await Promise.all([
    page.request.post("/api/desk/topups", { data: body, headers: SAME_ORIGIN }),
    page.request.post("/api/desk/topups", { data: body, headers: SAME_ORIGIN }),
  ]);
  const statuses = [a.status(), b.status()].sort();
  expect(statuses[0]).toBe(201);
  const again = await page.request.post("/api/desk/topups", { data: body, headers: SAME_ORIGIN });
  expect(again.status()).toBe(201);
  expect((await wristband(nfc)).balance).toBe(6000);

  // The wristband page shows the paid and the promo balance apart.
  await page.goto(`/wristbands/${nfc}`);
  await expect(page.getByTestId("paid-balance")).toHaveText("€60.00");
  await expect(page.getByTestId("promo-balance")).toHaveText(bonusText);
  await expect(page.getByRole("region", { name: "Sales" })).toContainText("No sales.");
});

test("a bonus that changed between quote and confirm is quoted again and asked again", async ({ page }) => {
  const nfc = `${RUN}-NFC-MISMATCH`;
  await freshTicket("MISMATCH", nfc);
  await signIn(page, "supervisor");
  await openDesk(page, nfc);
  await page.getByLabel(/^Amount/).fill("100");
  await expect(page.getByTestId("bonus-amount")).not.toHaveText(/none|Quoting/);
  const quoted = (await page.getByTestId("bonus-amount").textContent())!;
  await page.getByRole("button", { name: "Review top-up" }).click();
  await expect(page.getByTestId("confirm-bonus")).toHaveText(quoted);

  // Meanwhile another desk tops the same person up: the per-person cap leaves less bonus.
  for (let i = 0; i < 5; i++) {
    const q = await api<{ data: { bonus_amount: number; rule: { id: string } | null }[] }>(
      `/v1/topup-bonuses/quote?amounts=10000&code=${nfc}`,
    );
    const line = q.body.data[0]!;
    if (`€${(line.bonus_amount / 100).toFixed(2)}` !== quoted) break;
    const r = await api("/v1/topups", {
      method: "POST",
      body: JSON.stringify({
        code: nfc,
        amount: 10000,
        payment_method: "cash",
        bonus_amount: line.bonus_amount,
        bonus_rule: line.rule?.id ?? null,
      }),
    });
    expect(r.status).toBe(201);
  }
  const before = await wristband(nfc);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("status")).toContainText("The bonus changed");
  await expect(page.getByTestId("confirm-bonus").or(page.getByText("with no bonus"))).toBeVisible();
  await expect(page.getByTestId("confirm-bonus")).not.toHaveText(quoted);
  // Nothing was charged by the refused confirm.
  expect((await wristband(nfc)).balance).toBe(before.balance);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("receipt")).toContainText("€100.00");
  expect((await wristband(nfc)).balance).toBe(before.balance + 10000);
});

test("a withdrawal above the paid balance is refused in plain words with its request id", async ({
  page,
}) => {
  const nfc = `${RUN}-NFC-REFUND`;
  await freshTicket("REFUND", nfc);
  await signIn(page, "supervisor");
  await openDesk(page, nfc);
  await page.getByLabel("Withdrawal (refund)").check();
  await page.getByLabel(/^Amount/).fill("50");
  await page.getByRole("button", { name: "Review withdrawal" }).click();
  await page.getByRole("button", { name: "Confirm" }).click();
  const alert = page.getByRole("main").getByRole("alert");
  await expect(alert).toContainText("The paid balance is lower than this amount");
  await expect(alert).toContainText(/\(request \S+\)/);
  await expect(page.getByText("Paid balance now: €0.00")).toBeVisible();
  expect((await wristband(nfc)).balance).toBe(0);
});

test("resolving a review pair keeps one wristband and moves the other's balance", async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, "supervisor");
  await page.goto("/review");
  // The sync worker mirrors the queue within a cycle or two.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("button", { name: /^Keep / }).first()).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 120_000 });
  const keepButton = page.getByRole("button", { name: /^Keep / }).first();
  const nfc = (await keepButton.textContent())!.replace(/^Keep /, "").replace(/…$/, "");
  await keepButton.click();
  await expect(page.getByRole("alertdialog", { name: "Confirm keep" })).toContainText(`Keep ${nfc}?`);
  await expect(page.getByTestId("moving-paid")).toBeVisible();
  // The queue's next refresh (pushed each sync cycle) no longer lists the pair: what was kept stays.
  const refreshedWithout = page.waitForResponse(
    async (res) => new URL(res.url()).pathname === "/api/review" && !(await res.text()).includes(nfc),
  );
  await page.getByRole("button", { name: "Yes, keep this one" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Kept ${nfc}` })).toContainText("moved to it");
  await refreshedWithout;
  await expect(page.getByRole("status").filter({ hasText: `Kept ${nfc}` })).toContainText("moved to it");
  expect((await wristband(nfc)).status).toBe("active");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("button", { name: `Keep ${nfc}…` })).toHaveCount(0);
});

function ticketCsv(prefix: string, rows: number, opts: { codes: boolean; badLine?: number }) {
  const lines = [
    "code,ticket_type,name,email,document_type,document_number,birth_date,valid_days,extra_zones",
  ];
  for (let i = 0; i < rows; i++) {
    const line = i + 2;
    const email =
      opts.badLine === line
        ? "not-an-email"
        : `${prefix.toLowerCase()}-${i}@${RUN.toLowerCase()}.example.com`;
    lines.push(
      [
        opts.codes ? `${prefix}-${String(i).padStart(5, "0")}` : "",
        ticketTypes[0]!.name,
        `Imported ${i}`,
        email,
        i % 3 === 0 ? "passport" : "",
        i % 3 === 0 ? `X${String(1000000 + i)}` : "",
        "",
        days[0]!.name,
        "",
      ].join(","),
    );
  }
  return Buffer.from(lines.join("\n"));
}

test("an import of 1,200 rows with one bad row sends nothing until fixed, then all of it", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const prefix = `${RUN}-IMPA`;
  await signIn(page, "manager");
  await openScreen(page, "Ticket import");
  await page.getByLabel("CSV file", { exact: true }).setInputFiles({
    name: "tickets.csv",
    mimeType: "text/csv",
    buffer: ticketCsv(prefix, 1200, { codes: true, badLine: 602 }),
  });
  const errors = page.getByTestId("row-errors");
  await expect(errors.getByRole("alert")).toContainText("1 problem(s) in 1200 row(s). Nothing was sent");
  await expect(
    errors.getByRole("row", { name: /602 email "not-an-email" is not an email address/ }),
  ).toBeVisible();
  expect((await api(`/v1/tickets/${prefix}-00000`)).status).toBe(404);

  await page.getByLabel("CSV file", { exact: true }).setInputFiles({
    name: "tickets-fixed.csv",
    mimeType: "text/csv",
    buffer: ticketCsv(prefix, 1200, { codes: true }),
  });
  await expect(page.getByText("All 1200 rows are valid.")).toBeVisible();
  await page.getByRole("button", { name: "Import 1200 tickets" }).click();
  await expect(page.getByRole("progressbar", { name: "Import progress" })).toBeVisible();
  await expect(page.getByTestId("import-report")).toContainText(
    "Import complete: 1200 tickets created from 1200 rows in 3 chunk(s).",
    { timeout: 150_000 },
  );
  const codes = (await allTicketsSince()).map((t) => t.code).filter((c) => c.startsWith(`${prefix}-`));
  expect(codes.length).toBe(1200);
});

test("an import interrupted mid-way resumes without duplicates", async ({ page }) => {
  test.setTimeout(180_000);
  const prefix = `${RUN}-IMPB`;
  await signIn(page, "manager");
  await openScreen(page, "Ticket import");
  // Generated codes: only the stored Idempotency-Keys stand between a resume and duplicates.
  await page.getByLabel("CSV file", { exact: true }).setInputFiles({
    name: "no-codes.csv",
    mimeType: "text/csv",
    buffer: ticketCsv(prefix, 1200, { codes: false }),
  });
  await expect(page.getByText("All 1200 rows are valid.")).toBeVisible();
  let sends = 0;
  await page.route(/\/api\/import\/imp_[0-9a-f]+$/, async (route) => {
    if (route.request().method() === "POST" && ++sends === 2) {
      // The second chunk reaches the upstream, its answer never reaches the browser.
      await route.fetch();
      await route.abort("failed");
    } else await route.continue();
  });
  await page.getByRole("button", { name: "Import 1200 tickets" }).click();
  await expect(page.getByRole("button", { name: "Resume import" })).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId("import-progress")).toContainText("500 of 1200 rows sent");
  await page.getByRole("button", { name: "Resume import" }).click();
  await expect(page.getByTestId("import-report")).toContainText("Import complete: 1200 tickets created", {
    timeout: 150_000,
  });
  const emails = (await allTicketsSince())
    .map((t) => t.attendee.email)
    .filter((e) => e.startsWith(`${prefix.toLowerCase()}-`));
  expect(emails.length).toBe(1200);
  expect(new Set(emails).size).toBe(1200);
});

test("staff see no top-up action, and the route handler refuses them with 403", async ({ page }) => {
  await signIn(page, "staff");
  const nav = page.getByRole("navigation", { name: "Screens" });
  await expect(nav.getByRole("link", { name: "Tickets" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Top-up desk" })).toHaveCount(0);
  await page.goto("/desk");
  await expect(page).toHaveURL(/\/search\?denied=%2Fdesk$/);
  await expect(page.getByRole("main").getByRole("status")).toContainText("not available for your role");
  const desk = { code: "ANY-CODE", amount: 1000, payment_method: "cash", desk: "E2E desk 1" };
  const res = await page.request.post("/api/desk/topups", {
    data: { ...desk, idempotency_key: crypto.randomUUID() },
    headers: SAME_ORIGIN,
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.code).toBe("forbidden");
  const withdraw = await page.request.post("/api/desk/withdrawals", {
    data: { ...desk, idempotency_key: crypto.randomUUID() },
    headers: SAME_ORIGIN,
  });
  expect(withdraw.status()).toBe(403);
});

test("managers read the audit log of every write", async ({ page }) => {
  await signIn(page, "manager");
  await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Audit log" }).click();
  const table = page.getByRole("table");
  await expect(table.getByRole("row").filter({ hasText: "withdrawals.create" }).first()).toContainText(
    "insufficient_balance",
  );
  await expect(table.getByRole("row").filter({ hasText: "tickets.check_in" }).first()).toContainText(
    "staff (staff)",
  );
  const topup = table.getByRole("row").filter({ hasText: "topups.create" }).first();
  await expect(topup).toContainText("supervisor");
  // A long detail is folded to its start and opens on demand; its column stays narrow.
  const detail = topup.getByRole("cell").last();
  await expect(detail.locator("details")).toHaveCount(1);
  expect((await detail.boundingBox())!.width).toBeLessThanOrEqual(400);
  await detail.locator("summary").click();
  await expect(detail.locator("pre")).toContainText('"device_id": "E2E desk 1"');
});
