import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CreatedKey } from "../../lib/contract/admin";
import { apiDataDir } from "../config";
import { ADMIN_TOKEN_FILE } from "../server";

/**
 * `npm run keys -- create|list|activate|revoke`: the organiser's key tool, a client of the admin
 * API of a running service (API_URL, default http://127.0.0.1:$API_PORT).
 */

const usage = `Usage:
  npm run keys -- create --name NAME --scope SCOPE [--scope SCOPE ...] [--ticket-type ID ...] [--day ID ...]
                  [--read N] [--write N] [--checkin N] [--access N] [--allow-ip IP|CIDR ...]
                  [--expires-at ISO] [--activate] [--json]
  npm run keys -- list [--json]
  npm run keys -- activate KEY_ID [--json]
  npm run keys -- revoke KEY_ID [--json]

Environment: API_URL (default http://127.0.0.1:$API_PORT, port 4010), API_ADMIN_TOKEN
(default: the sandbox token in $API_DATA_DIR/admin-token).`;

function adminToken(): string {
  if (process.env.API_ADMIN_TOKEN) return process.env.API_ADMIN_TOKEN;
  const file = join(apiDataDir(process.env), ADMIN_TOKEN_FILE);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  throw new Error("API_ADMIN_TOKEN is not set and no sandbox token file was found");
}

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const base = process.env.API_URL || `http://127.0.0.1:${process.env.API_PORT || 4010}`;
  const response = await fetch(`${base}/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${adminToken()}`,
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const payload = (await response.json()) as {
    error?: { code: string; message: string; request_id: string };
  };
  if (!response.ok) {
    const e = payload.error;
    throw new Error(`${response.status} ${e?.code}: ${e?.message} (request ${e?.request_id})`);
  }
  return payload;
}

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      scope: { type: "string", multiple: true },
      "ticket-type": { type: "string", multiple: true },
      day: { type: "string", multiple: true },
      read: { type: "string" },
      write: { type: "string" },
      checkin: { type: "string" },
      access: { type: "string" },
      "allow-ip": { type: "string", multiple: true },
      "expires-at": { type: "string" },
      activate: { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  const [command, id] = positionals;
  const print = (value: unknown, text: string) =>
    console.log(values.json ? JSON.stringify(value, null, 2) : text);
  if (values.help || !command) return console.log(usage);

  if (command === "create") {
    const limits = Object.fromEntries(
      (["read", "write", "checkin", "access"] as const)
        .filter((b) => values[b] !== undefined)
        .map((b) => [b, Number(values[b])]),
    );
    const created = CreatedKey.parse(
      await call("POST", "/keys", {
        name: values.name,
        scopes: values.scope ?? [],
        restrictions: { ticket_type_ids: values["ticket-type"] ?? [], day_ids: values.day ?? [] },
        ...(Object.keys(limits).length ? { rate_limits: limits } : {}),
        ...(values["allow-ip"] ? { allowed_ips: values["allow-ip"] } : {}),
        ...(values["expires-at"] ? { expires_at: values["expires-at"] } : {}),
        ...(values.activate ? { activate: true } : {}),
      }),
    );
    print(
      created,
      `Created key ${created.id} (${created.status}).\n\n  ${created.key}\n\nStore it now: it is shown only once.`,
    );
  } else if (command === "list") {
    const list = (await call("GET", "/keys")) as {
      data: { id: string; name: string; status: string; scopes: string[]; key_hint: string }[];
    };
    print(
      list,
      list.data
        .map((k) => `${k.id}  ${k.status.padEnd(18)} ${k.key_hint}…  ${k.name}  [${k.scopes.join(" ")}]`)
        .join("\n") || "No keys.",
    );
  } else if ((command === "activate" || command === "revoke") && id) {
    const key = (await call("POST", `/keys/${encodeURIComponent(id)}/${command}`)) as {
      id: string;
      status: string;
    };
    print(key, `Key ${key.id} is now ${key.status}.`);
  } else {
    console.error(usage);
    process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(`keys: ${err.message}`);
  process.exitCode = 1;
});
