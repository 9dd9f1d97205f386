import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "./messages";

/**
 * The guards of the console's two languages: both message files have the same keys, every key the
 * code asks for exists, and no component writes user-visible words of its own.
 */

const root = join(__dirname, "..", "..", "..");
const sources = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "components", "app"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((f) => /\.tsx?$/.test(f) && !/\.(test|spec)\.tsx?$/.test(f));

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === "string" ? [`${prefix}${k}`] : leaves(v, `${prefix}${k}.`),
  );
}

function has(tree: Tree, path: string): boolean {
  let node: string | Tree | undefined = tree;
  for (const part of path.split(".")) {
    if (typeof node !== "object") return false;
    node = node[part];
  }
  return node !== undefined;
}

function parse(file: string, text = readFileSync(join(root, file), "utf8")): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

function walk(node: ts.Node, visit: (n: ts.Node) => void) {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** Props whose value people read (class names, ids, keys, hrefs are not words). */
const WORDY_PROPS = new Set([
  "aria-label",
  "title",
  "placeholder",
  "alt",
  "label",
  "caption",
  "what",
  "backLabel",
  "forwardLabel",
  "submitLabel",
  "columns",
  "empty",
  "unit",
  "hint",
  "name",
]);
const WORDS = /[A-Za-z]{2,}/;

function stringsIn(node: ts.Node): string[] {
  const found: string[] = [];
  const visit = (n: ts.Node) => {
    // Attributes of nested elements (class names, hrefs) and call arguments (keys, codes) are not words.
    if (ts.isJsxAttribute(n)) return;
    if (ts.isCallExpression(n)) return visit(n.expression);
    // `{ label: …, cellClassName: "…" }`: only the words of a column are words.
    if (ts.isPropertyAssignment(n) && /class|key|id$/i.test(n.name.getText())) return;
    // A value compared with (`state.kind === "failed"`) is data, not words.
    if (ts.isBinaryExpression(n) && /=/.test(n.operatorToken.getText())) return;
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) {
      if (WORDS.test(n.text)) found.push(n.text);
    } else if (ts.isTemplateExpression(n)) {
      const text = [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join(" ");
      if (WORDS.test(text)) found.push(text);
    }
    n.forEachChild(visit);
  };
  visit(node);
  return found;
}

/** User-visible words written in a component: JSX text, and string values of the wordy props. */
function hardCodedText(file: string, text?: string): string[] {
  const found: string[] = [];
  walk(parse(file, text), (n) => {
    if (ts.isJsxText(n) && WORDS.test(n.text)) found.push(n.text.trim());
    if (ts.isJsxExpression(n) && n.expression && (ts.isJsxElement(n.parent) || ts.isJsxFragment(n.parent)))
      found.push(...stringsIn(n.expression));
    // `name` of a form field is a field name; of a component (a chart's series) it is shown.
    const formField = (a: ts.JsxAttribute) =>
      a.name.getText() === "name" && /^[a-z]/.test(a.parent.parent.tagName.getText());
    if (ts.isJsxAttribute(n) && WORDY_PROPS.has(n.name.getText()) && !formField(n) && n.initializer) {
      const init = n.initializer;
      if (ts.isStringLiteral(init)) {
        if (WORDS.test(init.text)) found.push(init.text);
      } else if (ts.isJsxExpression(init) && init.expression) found.push(...stringsIn(init.expression));
    }
  });
  return found;
}

/** The namespace of `const <name> = useTranslations("ns")` (or getTranslations) in scope at `at`. */
function namespaceOf(at: ts.Node, name: string): string | null {
  for (let scope: ts.Node | undefined = at; scope; scope = scope.parent) {
    if (!ts.isBlock(scope) && !ts.isSourceFile(scope)) continue;
    for (const statement of scope.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const d of statement.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || d.name.text !== name || !d.initializer) continue;
        const call = ts.isAwaitExpression(d.initializer) ? d.initializer.expression : d.initializer;
        if (!ts.isCallExpression(call)) continue;
        const callee = call.expression.getText();
        if (callee !== "useTranslations" && callee !== "getTranslations") continue;
        const arg = call.arguments[0];
        return arg && ts.isStringLiteral(arg) ? `${arg.text}.` : "";
      }
    }
  }
  return null;
}

/** Keys a file asks for: `t("key")` and `t.rich("key")`, with the namespace `t` was made for. */
function keysUsed(file: string): string[] {
  const keys: string[] = [];
  walk(parse(file), (n) => {
    if (!ts.isCallExpression(n)) return;
    const callee = n.expression;
    const name = ts.isIdentifier(callee)
      ? callee.text
      : ts.isPropertyAccessExpression(callee) &&
          ts.isIdentifier(callee.expression) &&
          callee.name.text === "rich"
        ? callee.expression.text
        : null;
    const arg = n.arguments[0];
    if (!name || !arg || !ts.isStringLiteral(arg)) return;
    const namespace = namespaceOf(n, name);
    if (namespace !== null) keys.push(`${namespace}${arg.text}`);
  });
  return keys;
}

describe("two languages", () => {
  it("English and Spanish have the same keys, none empty", () => {
    const en = leaves(MESSAGES.en as Tree).sort();
    const es = leaves(MESSAGES.es as Tree).sort();
    expect(es.filter((k) => !en.includes(k))).toEqual([]);
    expect(en.filter((k) => !es.includes(k))).toEqual([]);
    const empty = (tree: Tree) =>
      leaves(tree).filter(
        (k) => !String(k.split(".").reduce<unknown>((t, p) => (t as Tree)[p], tree)).trim(),
      );
    expect(empty(MESSAGES.en as Tree)).toEqual([]);
    expect(empty(MESSAGES.es as Tree)).toEqual([]);
  });

  it("every key the screens ask for exists", () => {
    const missing = sources.flatMap((f) =>
      keysUsed(f)
        .filter((k) => !has(MESSAGES.en as Tree, k))
        .map((k) => `${f}: ${k}`),
    );
    expect(missing).toEqual([]);
    // The scan itself works: this file asks for keys it can see.
    expect(keysUsed("components/gate/ticket-view.tsx")).toContain("ticket.checkIn");
  });

  it("no component writes user-visible words of its own: they come from the message files", () => {
    const offenders = sources.flatMap((f) => hardCodedText(f).map((text) => `${f}: ${JSON.stringify(text)}`));
    expect(offenders).toEqual([]);
  });

  it("the scan catches words written the old way, and leaves keys, classes and data alone", () => {
    const old = `const A = () => (
      <Panel title="Latest sales" className="p-4">
        <p aria-label={busy ? "Saving…" : "Save"}>Nothing yet</p>
        {kind === "tickets" && <Stat label={t("sales")} value={money(total)} />}
      </Panel>
    );`;
    expect(hardCodedText("fixture.tsx", old).sort()).toEqual([
      "Latest sales",
      "Nothing yet",
      "Save",
      "Saving…",
    ]);
  });
});
