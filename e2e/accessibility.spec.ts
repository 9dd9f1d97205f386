import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Cookie, devices, expect, type Page, test } from "@playwright/test";
import { can, type Role, roles, screens } from "../lib/shared/permissions";
import { E2E_API_PORT, E2E_DATA_DIR } from "../playwright.config";
import {
  ACCESSIBILITY_LOGINS,
  AXE_TAGS,
  axeViolations,
  COLOUR_RULES,
  expectNoViolations,
  expectSecurePage,
  nameDesk,
  sandboxNow,
  signIn,
  violationsOf,
  waitForFirstSync,
  watchPolicies,
} from "./support";

/**
 * Accessibility (issue #8): axe-core finds no violation on any screen, for every role that can
 * see it, once the screen shows its data (WCAG 2.0/2.1/2.2 A and AA, and axe's best practices).
 * No rule is disabled: a violation is fixed in the component.
 *
 * Less work for the same proof (issue 34): each role signs in through the page once and its later
 * tests reuse that session; a manager's screen is loaded once and checked at the desktop's width,
 * on a tablet and in the dark theme in turn.
 *
 * Its state is its own (e2e/support.ts, OWN_STATE_SPECS): accounts of its own, which no other spec
 * signs out or sets to another language or theme, and nothing it does changes what others read. So
 * its tests run in parallel, beside the specs that share the demo accounts and the clock.
 */

const API = `http://127.0.0.1:${E2E_API_PORT}`;

/** The live screens show "Data as of" once their data (the sync's mirror) is loaded. */
async function liveReady(page: Page) {
  await expect(page.getByTestId("as-of")).toHaveText(/Data as of \d\d:\d\d:\d\d/, { timeout: 60_000 });
}

/** Charts are drawn after ResponsiveContainer measured its box: wait for every one to have its SVG. */
async function chartsDrawn(page: Page) {
  const figures = page.getByRole("main").getByRole("figure");
  for (const figure of await figures.all()) {
    await expect(figure.locator("svg").first()).toBeVisible();
  }
}

/** A table's first data row, or its first card on a phone (a DataTable of many columns). */
function firstRow(page: Page, name?: string) {
  return page
    .getByRole("table", { name })
    .getByRole("row")
    .nth(1)
    .or(page.getByRole("list", { name }).getByRole("listitem").first());
}

/** What each screen shows once it has loaded its data. */
const ready: Record<(typeof screens)[number]["href"], (page: Page) => Promise<void>> = {
  "/": async (page) => {
    await liveReady(page);
    await expect(page.getByTestId("current-day")).not.toBeEmpty();
    await chartsDrawn(page);
  },
  "/sales": async (page) => {
    await liveReady(page);
    await expect(
      page.getByRole("table", { name: "Latest sales, newest first" }).getByRole("row").nth(1),
    ).toBeVisible();
    await chartsDrawn(page);
  },
  "/topups": async (page) => {
    await liveReady(page);
    await expect(page.getByTestId("topups-total")).toBeVisible();
    await chartsDrawn(page);
  },
  "/desk": async (page) => {
    // A browser that has not named its desk yet is asked first.
    await expect(page.getByRole("button", { name: "Use this desk" })).toBeVisible();
  },
  "/search": async (page) => {
    await expect(page.getByText(/Type a ticket code, a wristband/)).toBeVisible();
  },
  "/wristbands": async (page) => {
    await expect(page.getByLabel("Wristband NFC or UHF code")).toBeVisible();
  },
  "/tickets": async (page) => {
    await expect(firstRow(page, "Tickets")).toBeVisible();
  },
  "/review": async (page) => {
    await expect(page.getByText(/\d+ pair\(s\) waiting/)).toBeVisible();
  },
  "/import": async (page) => {
    await expect(page.getByLabel("CSV file", { exact: true })).toBeVisible();
  },
  "/reconciliation": async (page) => {
    await liveReady(page);
    await expect(page.getByTestId("night-sales-count")).toBeVisible();
    await expect(page.getByTestId("checksum")).not.toBeEmpty();
  },
  "/scans": async (page) => {
    await liveReady(page);
    await expect(page.getByRole("table", { name: "Scans per zone" })).toBeVisible();
    await chartsDrawn(page);
  },
  "/users": async (page) => {
    await expect(page.getByRole("table", { name: "Accounts" }).getByRole("row").nth(1)).toBeVisible();
  },
  "/terminals": async (page) => {
    // The states come once the worker has mirrored records (after a cycle or, during the first
    // mirror, a backfill page); the screen asks again every 30 s.
    await expect(page.getByTestId("terminal-counts")).toBeVisible({ timeout: 60_000 });
  },
  "/alerts": async (page) => {
    await expect(page.getByRole("heading", { name: /^Open \(\d+\)$/ })).toBeVisible();
  },
  "/gates": async (page) => {
    await expect(page.getByTestId("gates-zones")).toBeVisible();
  },
  "/gates/misuse": async (page) => {
    await expect(page.getByRole("heading", { name: "Misuse cases" })).toBeVisible();
  },
  "/audit": async (page) => {
    await expect(page.getByRole("columnheader", { name: "Idempotency-Key" })).toBeVisible();
  },
  "/connection": async (page) => {
    await expect(firstRow(page, "Sync status per resource")).toBeVisible();
  },
};

/**
 * Opens a page and waits until it has loaded its data and nothing in it is still loading. The walk
 * of every screen and role is also e2e/security.spec.ts's: the page came with the security headers
 * and its scripts with the request's nonce, and, drawn, it broke no Content-Security-Policy.
 */
async function open(page: Page, path: string, loaded: (page: Page) => Promise<void>) {
  await expectSecurePage(await page.goto(path), path);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await loaded(page);
  await expect(page.locator("main [aria-busy=true]")).toHaveCount(0);
  expect(await violationsOf(page), `CSP violations on ${path}`).toEqual([]);
}

/** What the browser's console said about the policies during a test (watchPolicies). */
let policyMessages: string[] = [];
test.beforeEach(async ({ context }) => {
  policyMessages = await watchPolicies(context);
});
test.afterEach(() => {
  expect(policyMessages, "the browser's console on the policies").toEqual([]);
});

/**
 * Each role's cookies as its sign-in through the page left them (the session, the device cookie):
 * the worker's later tests of that role start signed in with them. No test of this file signs out,
 * changes a password or a role, so the sessions stay valid (12 h, never extended) while it runs.
 */
const sessions = new Map<Role, Cookie[]>();

/**
 * Signs in as `role`: through the sign-in page the first time in this worker (the page is then on
 * the role's home), else by giving the browser the session that sign-in made (the page is blank:
 * the test opens its screen next).
 */
async function signInOnce(page: Page, role: Role) {
  const cookies = sessions.get(role);
  if (cookies) {
    await page.context().addCookies(cookies);
    return;
  }
  await signIn(page, role, "en", ACCESSIBILITY_LOGINS[role]);
  sessions.set(role, await page.context().cookies());
}

/**
 * Waits until the page has laid itself out again after its viewport or colour scheme changed
 * (resize observers, the charts' sizes, the re-renders they cause, CSS transitions), and until
 * the screen shows its data again with nothing in it loading.
 */
async function settled(page: Page, href: keyof typeof ready) {
  await page.evaluate(async () => {
    const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    const task = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
    await frame();
    await frame();
    await task();
    await frame();
    // Finite animations only: a spinner's or a pulse's never finishes.
    const ending = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
  });
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await ready[href](page);
  await expect(page.locator("main [aria-busy=true]")).toHaveCount(0);
}

/** The page is painted in the dark palette: Chromium answers its colours as lab(L a b), L from 0 to 100. */
async function expectDarkBackground(page: Page) {
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(Number(background.match(/^lab\(([\d.]+)/)?.[1] ?? 100), background).toBeLessThan(30);
}

/**
 * Runs every check in turn (each a step of the test), also after one failed, then fails with all
 * their failures: a violation in one layout or theme hides none in another.
 */
async function everyCheck(checks: readonly (readonly [string, () => Promise<void>])[]) {
  const failures: string[] = [];
  for (const [title, check] of checks) {
    try {
      await test.step(title, check);
    } catch (error) {
      failures.push(`${title}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (failures.length > 0) throw new Error(failures.join("\n\n"));
}

/** The tablets at the desks: the narrower layout (tables that scroll sideways) must be as clean. */
const TABLET = { width: 768, height: 1024 };

/**
 * A manager's screen, opened once, in each layout and theme the console is used in: at the
 * desktop's width; on a tablet at the desks (768×1024); and in the dark theme (issue 27) at the
 * desktop's width, as the system's dark preference paints it (no choice made: the stylesheet follows
 * prefers-color-scheme), where the page is the same and only axe's colour rules run again. Each axe
 * run's message names the screen and the variant.
 */
async function expectCleanEverywhere(page: Page, href: keyof typeof ready) {
  const desktop = page.viewportSize()!;
  await everyCheck([
    ["at the desktop's width", () => expectNoViolations(page, `${href} as manager`)],
    [
      "on a tablet (768×1024)",
      async () => {
        await page.setViewportSize(TABLET);
        await settled(page, href);
        await expectNoViolations(page, `${href} on a tablet`);
      },
    ],
    [
      "in the dark theme",
      async () => {
        await page.setViewportSize(desktop);
        await page.emulateMedia({ colorScheme: "dark" });
        await settled(page, href);
        await expectDarkBackground(page);
        // The same page in other colours: only the rules that judge colours can answer otherwise.
        await expectNoViolations(page, `${href} in the dark theme`, { colours: true });
      },
    ],
  ]);
}

/** Codes of the sandbox to open: an active ticket, and a checked-in wristband with sales and its ticket. */
const fixture = { usedTicket: "", wristband: "" };

/** Reads the sandbox API with the fixtures' own key (set in beforeAll). */
let apiGet: <T>(path: string) => Promise<T> = async () => {
  throw new Error("the fixtures' key is not created yet");
};

/**
 * Opens the page of a ticket that is still active and returns its code. The simulator checks
 * random active tickets in all the time, so the codes are looked up right before, and the next
 * one is taken if the page shows that the simulator got there first.
 */
async function openActiveTicket(page: Page): Promise<string> {
  const { data } = await apiGet<{ data: { code: string }[] }>("/tickets?status=active&limit=5");
  for (const { code } of data) {
    await open(page, `/tickets/${encodeURIComponent(code)}`, async (p) => {
      await expect(p.getByRole("heading", { name: `Ticket ${code}` })).toBeVisible();
      await expect(p.getByTestId("status")).not.toBeEmpty();
    });
    if ((await page.getByTestId("status").textContent()) === "active") return code;
  }
  throw new Error("none of 5 active tickets stayed active long enough to be opened");
}

test.describe.configure({ mode: "parallel", timeout: 120_000 });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  // A key of its own, so that looking fixtures up does not spend the dashboard's read quota.
  const adminToken = readFileSync(join(E2E_DATA_DIR, "api", "admin-token"), "utf8").trim();
  const created = await fetch(`${API}/admin/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: "e2e accessibility fixtures",
      scopes: ["tickets.read", "cashless.read"],
      rate_limits: { read: 100000 },
    }),
  });
  expect(created.status).toBe(201);
  const key = ((await created.json()) as { key: string }).key;
  apiGet = async <T>(path: string) => {
    const res = await fetch(`${API}/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  const get = apiGet;
  type List<T> = { data: T[] };
  const bands = await get<List<{ nfc: string; ticket: { code: string } | null }>>(
    "/wristbands?status=active&limit=100",
  );
  for (const band of bands.data.filter((b) => b.ticket)) {
    const sales = await get<List<unknown>>(
      `/wristbands/${encodeURIComponent(band.nfc)}/transactions?limit=1`,
    );
    if (sales.data.length === 0) continue;
    fixture.wristband = band.nfc;
    fixture.usedTicket = band.ticket!.code;
    break;
  }
  expect(fixture.wristband, "an active wristband with sales").not.toBe("");

  // The live screens and the review queue read the mirror: wait until it holds the event.
  // The manager's sign-in is the one the manager's tests then reuse.
  const page = await browser.newPage();
  await signInOnce(page, "manager");
  await waitForFirstSync(page);
  await page.close();
});

test("the login page", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expectNoViolations(page, "/login");
  // With an error shown.
  await page.getByLabel("Username").fill("nobody");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expectNoViolations(page, "/login with an error");
});

test("the check itself: axe, as every test here runs it, names the violations a page has", async ({
  page,
}) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  // Once React has hydrated the page (its nodes carry React's keys): before that, hydration would
  // find the added elements and render the page again without them (it did on a cold server).
  await page.waitForFunction(() =>
    Object.keys(document.querySelector("main") ?? {}).some((key) => key.startsWith("__react")),
  );
  await page.evaluate(() => {
    const image = document.createElement("img");
    image.src = "/favicon.ico";
    const faint = document.createElement("p");
    faint.textContent = "Text too faint to read";
    faint.style.color = "#eeeeee";
    faint.style.background = "#ffffff";
    document.querySelector("main")!.append(image, faint);
  });
  const rules = (await axeViolations(page)).map((v) => v.id);
  expect(rules).toEqual(expect.arrayContaining(["image-alt", "color-contrast"]));
  // The dark theme's check, colours only: the faint text still, the missing alternative not.
  expect((await axeViolations(page, { colours: true })).map((v) => v.id)).toEqual(["color-contrast"]);
  // Its rules are all of axe's own (injected in the page above) that judge colours at our levels.
  const colourRules = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { getRules: (t: string[]) => { ruleId: string; tags: string[] }[] } }).axe
        .getRules(["cat.color"])
        .filter((r) => r.tags.some((t) => tags.includes(t)))
        .map((r) => r.ruleId),
    AXE_TAGS,
  );
  expect(colourRules.sort()).toEqual([...COLOUR_RULES].sort());
});

for (const role of roles as readonly Role[]) {
  test.describe(`as ${role}`, () => {
    for (const screen of screens.filter((s) => can(role, s.permission))) {
      // A manager's screens are checked on a tablet and in the dark theme too, on the same load.
      const also = role === "manager" ? ", also on a tablet and in the dark theme" : "";
      test(`${screen.label} (${screen.href})${also}`, async ({ page }) => {
        // Three axe runs, not one: the time of three tests (axe alone took a minute on /gates/misuse).
        if (role === "manager") test.slow();
        await signInOnce(page, role);
        await open(page, screen.href, ready[screen.href]);
        if (role === "manager") await expectCleanEverywhere(page, screen.href);
        else await expectNoViolations(page, `${screen.href} as ${role}`);
      });
    }

    test("a ticket that can be checked in, and one that was", async ({ page }) => {
      await signInOnce(page, role);
      const active = `/tickets/${encodeURIComponent(await openActiveTicket(page))}`;
      await expectNoViolations(page, `${active} as ${role}`);
      if (can(role, "tickets.cancel")) {
        await page.getByRole("button", { name: "Cancel ticket…" }).click();
        await expect(page.getByRole("alertdialog", { name: "Confirm cancellation" })).toBeVisible();
        await expectNoViolations(page, `${active} as ${role}, confirming the cancellation`);
      }
      const used = `/tickets/${encodeURIComponent(fixture.usedTicket)}`;
      await open(page, used, async (p) => {
        await expect(p.getByRole("link", { name: fixture.wristband })).toBeVisible();
      });
      await expectNoViolations(page, `${used} as ${role}`);
    });

    test("a wristband with its sales", async ({ page }) => {
      await signInOnce(page, role);
      const path = `/wristbands/${encodeURIComponent(fixture.wristband)}`;
      await open(page, path, async (p) => {
        await expect(p.getByRole("heading", { name: `Wristband ${fixture.wristband}` })).toBeVisible();
        await expect(p.getByRole("region", { name: "Sales" }).getByRole("listitem").first()).toBeVisible();
      });
      await expectNoViolations(page, `${path} as ${role}`);
    });

    if (can(role, "terminals.view")) {
      test("a terminal with its records", async ({ page }) => {
        await signInOnce(page, role);
        await open(page, "/terminals/bar-01", async (p) => {
          await expect(p.getByTestId("terminal-state")).toBeVisible({ timeout: 60_000 });
          await expect(firstRow(p, "The terminal's latest records")).toBeVisible();
        });
        await expectNoViolations(page, `/terminals/bar-01 as ${role}`);
      });
    }

    if (can(role, "topups.create")) {
      test("the top-up desk with a wristband loaded and a top-up to confirm", async ({ page }) => {
        await signInOnce(page, role);
        await open(page, "/desk", ready["/desk"]);
        await nameDesk(page);
        await expectNoViolations(page, `/desk as ${role}, desk named`);
        await page.getByLabel("Wristband code").fill(fixture.wristband);
        await page.getByRole("button", { name: "Load wristband" }).click();
        await expect(page.getByTestId("bonus-amount")).toBeVisible();
        await expectNoViolations(page, `/desk as ${role}, wristband loaded`);
        await page.getByRole("button", { name: "Review top-up" }).click();
        await expect(page.getByRole("alertdialog", { name: "Confirm" })).toBeVisible();
        await expectNoViolations(page, `/desk as ${role}, confirming`);
      });
    }

    if (can(role, "tickets.import")) {
      test("the ticket import with row errors", async ({ page }) => {
        await signInOnce(page, role);
        await open(page, "/import", ready["/import"]);
        await page.getByLabel("CSV file", { exact: true }).setInputFiles({
          name: "bad.csv",
          mimeType: "text/csv",
          buffer: Buffer.from("code,ticket_type,name,email\nA11Y-1,No such type,Someone,not-an-email\n"),
        });
        await expect(page.getByTestId("row-errors").getByRole("row").nth(1)).toBeVisible();
        await expectNoViolations(page, `/import as ${role}, with row errors`);
      });
    }
  });
}

// Every manager's screen on a tablet and in the dark theme: "as manager" (expectCleanEverywhere).
// The dark theme (issue 27): the sign-in page, signed out, meets AA contrast too.
test.describe("in the dark theme, signed out", () => {
  test.use({ colorScheme: "dark" });
  test("the login page", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    await expectDarkBackground(page);
    await expectNoViolations(page, "/login in the dark theme");
  });
});

// Staff at the gate use phones (issue 14): every staff screen at an iPhone's width (390 px, touch),
// with the menu open, a name search's results as cards, the scanner and a refused screen's notice.
test.describe("on a phone (iPhone 13's profile in Chromium), as staff", () => {
  const { defaultBrowserType: _webkit, ...iPhone } = devices["iPhone 13"];
  test.use(iPhone);
  for (const screen of screens.filter((s) => can("staff", s.permission))) {
    test(`${screen.label} (${screen.href})`, async ({ page }) => {
      await signInOnce(page, "staff");
      await open(page, screen.href, ready[screen.href]);
      await expectNoViolations(page, `${screen.href} on a phone`);
    });
  }

  test("the menu open, a ticket to check in, name search results, the scanner and a refused screen", async ({
    page,
  }) => {
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = async () => {
        throw new DOMException("refused by the test", "NotAllowedError");
      };
    });
    await signInOnce(page, "staff");
    // The staff's home, where a sign-in through the page lands.
    await open(page, "/search", ready["/search"]);
    const menu = page.getByRole("button", { name: "Menu" });
    await menu.click();
    await expect(page.getByRole("navigation", { name: "Screens" }).getByRole("link").first()).toBeFocused();
    await expectNoViolations(page, "the menu open on a phone");
    await page.keyboard.press("Escape");

    const active = await openActiveTicket(page);
    await expectNoViolations(page, `/tickets/${active} on a phone`);

    await open(page, `/search?q=${encodeURIComponent("garcia")}`, async (p) => {
      await expect(
        p
          .getByRole("list", { name: /Attendees named “garcia”/ })
          .getByRole("listitem")
          .first(),
      ).toBeVisible();
    });
    await expectNoViolations(page, "name search results on a phone");

    await page.getByRole("button", { name: "Scan" }).click();
    await expect(page.getByRole("dialog").getByRole("alert")).toBeVisible();
    await expectNoViolations(page, "the scanner with the camera refused, on a phone");
    await page.keyboard.press("Escape");

    await open(page, "/reconciliation", async (p) => {
      await expect(p.getByRole("status").filter({ hasText: "not available for your role" })).toBeVisible();
    });
    await expectNoViolations(page, "a refused screen's notice on a phone");
  });
});

test("a table that scrolls is a named region the keyboard can scroll; one that fits adds no tab stop", async ({
  page,
}) => {
  await signInOnce(page, "supervisor");
  await open(page, "/sales", ready["/sales"]);
  // The "By terminal" box is 20 rem high, shorter than its header and 11 rows. The day shown is the
  // one that sold at the most terminals (a whole day of the demo: 11), not today's, which has only a
  // few in the first minutes after the day opens at noon.
  const day = await dayAtMostTerminals(page);
  expect(day.terminals).toBeGreaterThanOrEqual(11);
  await page.getByRole("combobox", { name: /^Event day/ }).selectOption(day.id);
  const terminals = page.getByRole("region", { name: "Sales by terminal" });
  await expect(terminals).toHaveAttribute("tabindex", "0");
  await terminals.focus();
  await page.keyboard.press("PageDown");
  await expect.poll(() => terminals.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  // "By tax rate" has a few rows: a plain box, not a region, not focusable.
  const tax = page.getByRole("table", { name: "Sales by tax rate" });
  await expect(tax).toBeVisible();
  await expect(page.getByRole("region", { name: "Sales by tax rate" })).toHaveCount(0);
  expect(await tax.evaluate((table) => table.parentElement?.getAttribute("tabindex"))).toBeNull();
});

/** The event day whose sales came from the most terminals, read from the console's own API. */
async function dayAtMostTerminals(page: Page): Promise<{ id: string; terminals: number }> {
  const ids = await page
    .getByRole("combobox", { name: /^Event day/ })
    .locator("option")
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  let best = { id: "", terminals: -1 };
  for (const id of ids) {
    const res = await page.request.get(`/api/live/sales?day_id=${id}`);
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { by_device: unknown[] };
    if (body.by_device.length > best.terminals) best = { id, terminals: body.by_device.length };
  }
  return best;
}

/**
 * The bars the sales screen's charts draw while it switches to the night before: every outline a
 * chart put on the page (a bar inserted, or its outline changed) is recorded by a MutationObserver
 * from the page's first script, then compared with the outlines shown before and once it is still.
 * A chart that honours reduced motion (WCAG 2.3.3) draws each bar where it was or where it ends (the
 * old night's bars may be drawn again before the new night's come); an animated one draws it moving,
 * through outlines it neither started nor ends on. The page's clock is Playwright's, paused and run
 * a frame (16 ms) at a time, so an animation shows its frames however busy the machine: counting
 * frames on the real clock would measure the machine. The suite itself runs with reduced motion
 * (playwright.config.ts).
 */
async function barsDrawnOnDaySwitch(page: Page) {
  // The page's clock starts at the sandbox's instant, as the console's would.
  const installedAt = (await sandboxNow()).getTime();
  await page.clock.install({ time: installedAt });
  await page.addInitScript(() => {
    const w = window as unknown as { drawnBars: Set<string> };
    w.drawnBars = new Set();
    const bars = "path.recharts-rectangle";
    const record = (path: Element) => w.drawnBars.add(path.getAttribute("d") ?? "");
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === "attributes" && (r.target as Element).matches(bars)) record(r.target as Element);
        for (const node of r.addedNodes) {
          if (!(node instanceof Element)) continue;
          if (node.matches(bars)) record(node);
          for (const path of node.querySelectorAll(bars)) record(path);
        }
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ["d"], childList: true });
  });
  await open(page, "/sales", ready["/sales"]);
  const select = page.getByRole("combobox", { name: /^Event day/ });
  const shown = await select.inputValue();
  const days = await select
    .locator("option")
    .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
  // From one closed night to the next: neither's figures change while the chart switches (the day
  // shown first is the running one, whose bars a sale pushed mid-switch would move).
  const closed = days.slice(0, days.indexOf(shown));
  expect(closed.length, `closed nights among ${days.join(", ")}`).toBeGreaterThanOrEqual(2);
  const [from, to] = closed.slice(-2) as [string, string];
  const outlines = () =>
    page.evaluate(() => {
      const w = window as unknown as { drawnBars: Set<string> };
      const shownBars = [...document.querySelectorAll("main path.recharts-rectangle")].map(
        (path) => path.getAttribute("d") ?? "",
      );
      return { drawn: [...w.drawnBars], shown: shownBars.join(" | ") };
    });
  // A frame at a time until the chosen night's bars are shown and have stood still for two seconds
  // of the page's time (an animation lasts 1.5 s).
  const switchTo = async (day: string) => {
    const shownBefore = (await outlines()).shown;
    await select.selectOption(day);
    let last = await outlines();
    for (let still = 0; last.shown === shownBefore || still < 2_000; ) {
      await page.clock.runFor(16);
      const now = await outlines();
      still = now.shown === last.shown ? still + 16 : 0;
      last = now;
    }
    return last;
  };
  // Paused a minute after it started, past the page's load: the timers due by then fire once.
  await page.clock.pauseAt(installedAt + 60_000);
  const shownBefore = (await switchTo(from)).shown;
  await page.evaluate(() => (window as unknown as { drawnBars: Set<string> }).drawnBars.clear());
  const last = await switchTo(to);
  await page.clock.resume();
  const endpoints = new Set([...shownBefore.split(" | "), ...last.shown.split(" | ")]);
  return {
    shown: last.shown.split(" | ").length,
    drawnBetween: last.drawn.filter((d) => !endpoints.has(d)).length,
  };
}

test("charts draw at once for a person who asks for reduced motion, and animate otherwise", async ({
  browser,
}) => {
  const bars: Record<string, { shown: number; drawnBetween: number }> = {};
  for (const reducedMotion of ["reduce", "no-preference"] as const) {
    const context = await browser.newContext({ reducedMotion });
    const page = await context.newPage();
    await signInOnce(page, "manager");
    bars[reducedMotion] = await barsDrawnOnDaySwitch(page);
    await context.close();
  }
  const report = JSON.stringify(bars);
  expect(bars.reduce!.shown, report).toBeGreaterThan(0);
  expect(bars.reduce!.drawnBetween, report).toBe(0);
  expect(bars["no-preference"]!.shown, report).toBeGreaterThan(0);
  expect(bars["no-preference"]!.drawnBetween, report).toBeGreaterThan(0);
});
