import { expect, test } from "@playwright/test";
import { LOGINS, signIn } from "./support";

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
  await nav.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);

  await signIn(page, "supervisor");
  await expect(
    page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Top-ups" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();

  await signIn(page, "staff");
  await expect(page).toHaveURL(/\/wristbands$/);
  const staffNav = page.getByRole("navigation", { name: "Screens" });
  await expect(staffNav.getByRole("link", { name: "Tickets" })).toBeVisible();
  await expect(staffNav.getByRole("link", { name: "Overview" })).toHaveCount(0);
  await expect(staffNav.getByRole("link", { name: "Top-ups" })).toHaveCount(0);
  // The screen itself refuses too, not only the navigation.
  await page.goto("/reconciliation");
  await expect(page.getByRole("main").getByRole("alert")).toContainText("does not give access");
});

test("a wrong password is refused in plain words", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Username").fill(LOGINS.manager.username);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong username or password.");
  await expect(page).toHaveURL(/\/login/);
});

test("repeated wrong passwords lock the account, even for the right password", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/login");
  for (let attempt = 1; attempt <= 5; attempt++) {
    await page.getByLabel("Username").fill("lockout-victim");
    await page.getByLabel("Password").fill(`wrong-${attempt}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled({ timeout: 30_000 });
  }
  await expect(page.getByRole("main").getByRole("alert")).toContainText("locked");
  await page.getByLabel("Username").fill("lockout-victim");
  await page.getByLabel("Password").fill("lockout-test-pass");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("locked");
});
