import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { endpoint } from "@/lib/shared/api/endpoints/define";
import { type Harness, PASSWORDS, startHarness } from "@/lib/testing/console-harness";
import { answered, handle } from "./handle";

/** handle(): the declaration's permission, input and answer, on top of route()'s checks. */

const thing = endpoint({
  name: "test.thing",
  summary: "A test write.",
  method: "POST",
  path: "/api/things/{id}",
  permission: "users.manage",
  params: z.object({ id: z.string().regex(/^\d+$/, "not an id.") }),
  query: z.object({ mode: z.enum(["a", "b"]).optional() }),
  body: z.object({ n: z.number().int() }),
  answer: z.object({ id: z.string(), n: z.number(), mode: z.string().nullable(), who: z.string() }),
  status: 201,
  refresh: "once",
});

let h: Harness;
let manager: string;
let staff: string;
let seen: unknown = null;
const POST = handle(thing, ({ params, query, body, user }) => {
  seen = { params, query, body };
  // A field the answer does not declare: it must never reach the browser.
  return { id: params.id, n: body.n, mode: query.mode ?? null, who: user.username, secret: "hash" };
});

beforeAll(async () => {
  h = await startHarness({ upstream: false });
  manager = (await h.signIn("manager", PASSWORDS.manager)).cookie;
  staff = (await h.signIn("staff", PASSWORDS.staff)).cookie;
});
afterAll(async () => {
  await h?.close();
});

const send = (cookie: string, body: unknown, params = { id: "7" }, query = "?mode=b") =>
  h.call({ POST }, "POST", `/api/things/${params.id}${query}`, { cookie, body, params });

describe("handle", () => {
  it("parses params, query and body with the declaration and answers its schema with its status", async () => {
    const res = await send(manager, { n: 3 });
    expect(res.status).toBe(201);
    const json = await res.json();
    expect(json).toEqual({ id: "7", n: 3, mode: "b", who: "manager" });
    expect(JSON.stringify(json)).not.toContain("hash");
    expect(seen).toEqual({ params: { id: "7" }, query: { mode: "b" }, body: { n: 3 } });
  });

  it("refuses a role without the declared permission: 403 forbidden in the envelope, the handler never runs", async () => {
    seen = null;
    const res = await send(staff, { n: 3 });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
    expect(seen).toBeNull();
    expect((await send("", { n: 3 })).status).toBe(401);
  });

  it("a body, query or path that fails its schema is 400 invalid_parameter naming the field", async () => {
    const cases = [
      { res: await send(manager, { n: "three" }), param: "n" },
      { res: await send(manager, { n: 3 }, { id: "x" }), param: "id" },
      { res: await send(manager, { n: 3 }, { id: "7" }, "?mode=c"), param: "mode" },
    ];
    for (const { res, param } of cases) {
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: "invalid_parameter", param });
    }
    const notJson = await h.call({ POST }, "POST", "/api/things/7", {
      cookie: manager,
      body: "{",
      params: { id: "7" },
    });
    expect((await notJson.json()).error.code).toBe("invalid_json");
  });

  it("keeps route()'s checks: a foreign Origin is refused before anything is read", async () => {
    const res = await h.call({ POST }, "POST", "/api/things/7", {
      cookie: manager,
      body: { n: 1 },
      params: { id: "7" },
      headers: { origin: "http://evil.test" },
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("foreign_origin");
  });

  it("answered() sets another status, headers and cookies; a download's Response passes as made", async () => {
    const open = endpoint({
      name: "test.open",
      summary: "A public read.",
      method: "GET",
      path: "/api/open",
      permission: "public",
      answer: z.object({ signedIn: z.boolean() }),
      refresh: "once",
    });
    const GET = handle(open, ({ user }) =>
      answered({ signedIn: user !== null }, { status: 202, headers: { "x-test": "1" }, cookies: ["a=1"] }),
    );
    const res = await h.call({ GET }, "GET", "/api/open");
    expect([res.status, res.headers.get("x-test"), res.headers.get("set-cookie")]).toEqual([202, "1", "a=1"]);
    expect(await res.json()).toEqual({ signedIn: false });
    const csv = endpoint({ ...open, name: "test.csv", permission: "signed-in", answer: "csv" });
    const file = handle(csv, () => new Response("a,b\r\n", { headers: { "content-type": "text/csv" } }));
    const got = await h.call({ GET: file }, "GET", "/api/open", { cookie: staff });
    expect([got.status, await got.text()]).toEqual([200, "a,b\r\n"]);
  });
});
