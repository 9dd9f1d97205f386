import { errorCatalog } from "../../lib/contract/errors";

type Doc = {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, Operation | undefined> | undefined>;
};
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  "x-scope"?: string;
  "x-rate-limit-bucket"?: string;
  "x-extension"?: boolean;
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    description?: string;
    schema?: Record<string, unknown>;
  }[];
  responses?: Record<string, { description?: string }>;
};

const escapeHtml = (s: unknown) => String(s ?? "").replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function typeOf(schema: Record<string, unknown> | undefined): string {
  if (!schema) return "";
  if (Array.isArray(schema.enum)) return schema.enum.join(" | ");
  const range =
    schema.minimum !== undefined
      ? ` ${schema.minimum}..${schema.maximum}`
      : schema.pattern
        ? ` ${schema.pattern}`
        : "";
  return `${schema.type ?? "string"}${range}`;
}

/** A readable API reference rendered from the same OpenAPI document clients fetch. */
export function renderReference(doc: Doc): string {
  const operations = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods ?? {}).flatMap(([method, op]) => (op ? [{ path, method, op }] : [])),
  );
  const sections = operations
    .map(({ path, method, op }) => {
      const params = (op.parameters ?? [])
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? "yes" : "no"}</td><td>${escapeHtml(typeOf(p.schema))}</td><td>${escapeHtml(p.description)}</td></tr>`,
        )
        .join("");
      const responses = Object.entries(op.responses ?? {})
        .map(([status, r]) => `<li><b>${escapeHtml(status)}</b> ${escapeHtml(r.description)}</li>`)
        .join("");
      return `<section id="${escapeHtml(method + path)}">
<h3><span class="m">${escapeHtml(method.toUpperCase())}</span> <code>/v1${escapeHtml(path)}</code>${op["x-extension"] ? ' <span class="ext">[ext]</span>' : ""}</h3>
<p>${escapeHtml(op.summary)}. ${escapeHtml(op.description ?? "")}</p>
<p>Scope: <code>${escapeHtml(op["x-scope"])}</code> · rate-limit bucket: <code>${escapeHtml(op["x-rate-limit-bucket"])}</code></p>
${params ? `<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Type</th><th>Notes</th></tr>${params}</table>` : ""}
<ul>${responses}</ul></section>`;
    })
    .join("\n");
  const errors = Object.entries(errorCatalog)
    .map(([code, e]) => `<tr><td><code>${code}</code></td><td>${e.status}</td><td>${e.type}</td></tr>`)
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)} — reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
code{background:#f2f2f2;padding:0 .25em;border-radius:3px}table{border-collapse:collapse;margin:.5rem 0}
td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;vertical-align:top}.m{color:#0550ae}
.ext{color:#8250df;font-size:.8em}section{border-top:1px solid #ddd;margin-top:1.5rem}</style></head><body>
<h1>${escapeHtml(doc.info.title)} <small>v${escapeHtml(doc.info.version)}</small></h1>
<p>${escapeHtml(doc.info.description)}</p>
<p>Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1).</p>
<h2>Rules that hold everywhere</h2>
<ul>
<li>Authentication: <code>Authorization: Bearer eak_&lt;live|test&gt;_&lt;secret&gt;</code>. Keys with write scopes start disabled until the organiser activates them.</li>
<li>Lists are ordered by <code>id</code> (arrival). Pass <code>next_cursor</code> as <code>starting_after</code>; rely on <code>has_more</code>, never on the page size. <code>limit</code> 1..200, default 50.</li>
<li><code>since</code> filters sales, top-ups and scans by <code>occurred_at</code> (inclusive); offline terminals sync late, so overlap windows and dedupe by id. Group by <code>occurred_at</code> / <code>day_id</code>, never by arrival.</li>
<li>Rate limits per key, fixed 60-second windows, buckets <code>read</code> 120, <code>write</code> 20, <code>checkin</code> 60, <code>access</code> 120 per minute; headers <code>x-ratelimit-limit</code>, <code>x-ratelimit-remaining</code>, <code>x-ratelimit-reset</code> (seconds); 429 carries <code>retry-after</code>.</li>
<li>Every response carries <code>X-Request-Id</code>; error bodies repeat it as <code>error.request_id</code>. Quote it to support.</li>
<li>Write operations need an <code>Idempotency-Key</code> (UUID), remembered 24 hours per key.</li>
</ul>
<h2>Endpoints</h2>
${sections}
<h2>Error codes</h2>
<table><tr><th>Code</th><th>Status</th><th>Type</th></tr>${errors}</table>
</body></html>`;
}
