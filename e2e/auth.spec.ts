import { type APIRequestContext, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { CONSOLE_ORIGIN, LOGINS, SAME_ORIGIN, SHARED_SANDBOX, signIn } from "./support";

// The demo accounts and the sandbox clock: one such spec at a time (e2e/support.ts).
test.describe.configure({ lock: SHARED_SANDBOX });

test("anonymous visitors are sent to /login, pages and route handlers alike", async ({ page, request }) => {
  await page.goto("/connection");
  await expect(page).toHaveURL(/\/login\?next=%2Fconnection$/);
  await expect(page.getByRole("heading", { name: "Sandbox demo logins" })).toBeVisible();
  const api = await request.get("/api/connection");
  expect(api.status()).toBe(401);
});

test("each role signs in and sees only its screens", async ({ page }) => {
  await signIn(page, "manager");
  await expect(page).toHaveURL(/\/$/);
  const nav = page.getByRole("navigation", { name: "Screens" });
  await expect(nav.getByRole("link", { name: "Overview" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Night reconciliation" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Users" })).toBeVisible();
  await nav.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);

  await signIn(page, "supervisor");
  await expect(
    page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Top-ups" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();

  await signIn(page, "staff");
  await expect(page).toHaveURL(/\/search$/);
  const staffNav = page.getByRole("navigation", { name: "Screens" });
  await expect(staffNav.getByRole("link", { name: "Tickets" })).toBeVisible();
  await expect(staffNav.getByRole("link", { name: "Overview" })).toHaveCount(0);
  await expect(staffNav.getByRole("link", { name: "Top-ups" })).toHaveCount(0);
  await expect(staffNav.getByRole("link", { name: "Users" })).toHaveCount(0);
  // The screen itself refuses too, not only the navigation: back home, saying why.
  await page.goto("/reconciliation");
  await expect(page).toHaveURL(/\/search\?denied=%2Freconciliation$/);
  await expect(page.getByRole("main").getByRole("status")).toContainText("not available for your role");
});

test("a wrong password is refused in plain words", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Username").fill(LOGINS.manager.username);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong username or password.");
  await expect(page).toHaveURL(/\/login/);
});

async function tryPassword(page: Page, username: string, password: string) {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled({ timeout: 30_000 });
}

test("repeated wrong passwords lock the account for new browsers; a manager unlocks it", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.goto("/login");
  for (let attempt = 1; attempt <= 5; attempt++)
    await tryPassword(page, "lockout-victim", `wrong-${attempt}`);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Too many failed sign-ins");
  await tryPassword(page, "lockout-victim", "lockout-test-pass");
  await expect(page.getByRole("main").getByRole("alert")).toContainText(
    "sign-in from new browsers is paused",
  );

  // The users screen shows it; a manager unlocks it; the right password then works.
  const managerContext = await browser.newContext();
  const manager = await managerContext.newPage();
  await signIn(manager, "manager");
  await manager.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Users" }).click();
  const row = manager.getByRole("table", { name: "Accounts" }).getByRole("row", { name: /lockout-victim/ });
  await expect(row).toContainText("Locked until");
  await expect(row).toContainText("6");
  await expect(manager.getByRole("table", { name: "Failed sign-ins" })).toContainText("lockout-victim");
  await row.getByRole("button", { name: "Unlock lockout-victim" }).click();
  await expect(row).toContainText("allowed");
  await managerContext.close();

  await page.getByLabel("Username").fill("lockout-victim");
  await page.getByLabel("Password").fill("lockout-test-pass");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Signed in as lockout-victim")).toBeVisible();
});

test("a trusted browser signs in while another source hammers the account", async ({ page, playwright }) => {
  test.setTimeout(120_000);
  // This browser signed in before (it keeps a device cookie), then signed out.
  await page.goto("/login");
  await page.getByLabel("Username").fill("trusted-victim");
  await page.getByLabel("Password").fill("trusted-test-pass");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Signed in as trusted-victim")).toBeVisible();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);

  // Someone else hammers the account, in parallel, until it is locked for new browsers.
  const attacker = await playwright.request.newContext({
    baseURL: CONSOLE_ORIGIN,
    extraHTTPHeaders: SAME_ORIGIN,
  });
  const guesses = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      attacker.post("/api/auth/login", { data: { username: "trusted-victim", password: `guess-${i}` } }),
    ),
  );
  expect(guesses.map((r) => r.status())).toContain(423);
  const right = await attacker.post("/api/auth/login", {
    data: { username: "trusted-victim", password: "trusted-test-pass" },
  });
  expect(right.status()).toBe(423);
  await attacker.dispose();

  // The browser that signed in before is not locked out.
  await page.getByLabel("Username").fill("trusted-victim");
  await page.getByLabel("Password").fill("trusted-test-pass");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Signed in as trusted-victim")).toBeVisible();
});

/** A request context of its own carrying a copy of `context`'s cookies (a stolen or kept cookie). */
async function copyOfCookies(
  context: BrowserContext,
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
) {
  return playwright.request.newContext({
    baseURL: CONSOLE_ORIGIN,
    extraHTTPHeaders: SAME_ORIGIN,
    storageState: await context.storageState(),
  });
}

test("an old cookie is refused after sign-out: no reading, no re-sync", async ({
  page,
  context,
  playwright,
}) => {
  await signIn(page, "manager");
  const copy = await copyOfCookies(context, playwright);
  expect((await copy.get("/api/audit")).status()).toBe(200);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  expect((await copy.get("/api/audit")).status()).toBe(401);
  const resync = await copy.post("/api/reconciliation/resync", { data: { day_id: "any-day" } });
  expect(resync.status()).toBe(401);
  await copy.dispose();
});

test("sign out everywhere ends the sessions of every browser", async ({ page, browser }) => {
  await signIn(page, "supervisor");
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, "supervisor");
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/login/);
  await otherPage.goto("/review");
  await expect(otherPage).toHaveURL(/\/login/);
  await other.close();
});

test.describe("where the browser goes after signing in", () => {
  // The cases and their relatives: each would leave the console if followed.
  for (const next of [
    "/%5Cevil.example",
    "/%09/evil.example",
    "/%5Cevil.example/x",
    "//evil.example",
    "/%2F%2Fevil.example",
    "https://evil.example/",
    "javascript:alert(1)",
  ]) {
    test(`refuses next=${next}`, async ({ page }) => {
      await page.goto(`/login?next=${next}`);
      await page.getByLabel("Username").fill(LOGINS.manager.username);
      await page.getByLabel("Password").fill(LOGINS.manager.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByText("Signed in as manager")).toBeVisible();
      expect(new URL(page.url()).origin).toBe(CONSOLE_ORIGIN);
      expect(new URL(page.url()).pathname).toBe("/");
    });
  }

  test("follows a path of the console", async ({ page }) => {
    await page.goto("/tickets?status=used");
    await expect(page).toHaveURL(/\/login\?next=%2Ftickets%3Fstatus%3Dused$/);
    await page.getByLabel("Username").fill(LOGINS.staff.username);
    await page.getByLabel("Password").fill(LOGINS.staff.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${CONSOLE_ORIGIN}/tickets?status=used`);
  });
});

test("state changes need the console's Origin and a JSON body; forwarded headers are not believed", async ({
  playwright,
}) => {
  const bare = await playwright.request.newContext({ baseURL: CONSOLE_ORIGIN });
  const body = { data: { username: "manager", password: "manager-demo-pass" } };
  const noOrigin = await bare.post("/api/auth/login", body);
  expect(noOrigin.status()).toBe(403);
  expect((await noOrigin.json()).error.code).toBe("origin_required");
  const spoofed = await bare.post("/api/auth/login", {
    ...body,
    headers: { origin: "http://evil.example", "x-forwarded-host": "evil.example" },
  });
  expect(spoofed.status()).toBe(403);
  expect((await spoofed.json()).error.code).toBe("foreign_origin");
  const text = await bare.post("/api/auth/login", {
    headers: { ...SAME_ORIGIN, "content-type": "text/plain" },
    data: JSON.stringify(body.data),
  });
  expect(text.status()).toBe(415);
  const form = await bare.post("/api/auth/login", { headers: SAME_ORIGIN, form: body.data });
  expect(form.status()).toBe(415);
  await bare.dispose();
});

test("bad input answers 4xx, never a 500: path encoding, numbers past their bounds, an import past its limit", async ({
  page,
  context,
  playwright,
}) => {
  await signIn(page, "manager");
  const api = await copyOfCookies(context, playwright);
  const ticket = await api.get("/api/tickets/%E0");
  expect(ticket.status()).toBe(400);
  expect((await ticket.json()).error.code).toBe("invalid_path");
  const audit = await api.get("/api/audit?before=999999999999999999999");
  expect(audit.status()).toBe(400);
  expect((await audit.json()).error.param).toBe("before");
  const big = await api.post("/api/import/validate", {
    data: { file_name: "big.csv", csv: "x".repeat(21 * 1024 * 1024) },
  });
  expect(big.status()).toBe(413);
  expect((await big.json()).error.message).toBe("The import is 21 MB; the limit is 20 MB.");
  await api.dispose();

  const res = await page.goto("/tickets/%E0");
  expect(res?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "Bad address (400)" })).toBeVisible();
  await page.getByRole("link", { name: "Go to the console's first screen" }).click();
  await expect(page.getByText("Signed in as manager")).toBeVisible();
});
