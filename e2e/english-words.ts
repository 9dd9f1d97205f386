import type { Page } from "@playwright/test";
import { MESSAGES } from "../lib/shared/i18n/messages";

/**
 * What "a visible English word of the console" is, for the test that walks every screen in
 * Spanish: the fixed words of the English messages (the text between an ICU message's arguments
 * and tags) that no Spanish message has too ("Check-in", "UHF", "Total" are the same in both).
 * Data is not words of the console: what is marked `translate="no"` (SafeText marks the names,
 * e-mails, comments, codes and ids it shows) and codes (`<code>`, monospace) are skipped.
 */

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree): string[] {
  return Object.values(tree).flatMap((v) => (typeof v === "string" ? [v] : leaves(v)));
}

/** The fixed text of an ICU message: what lies outside its `{…}` arguments and its `<tag>`s. */
export function fixedFragments(message: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const c of message) {
    if (c === "{") {
      if (depth === 0) out.push(current);
      current = "";
      depth++;
    } else if (c === "}") {
      depth = Math.max(0, depth - 1);
    } else if (depth === 0) current += c;
  }
  out.push(current);
  return out
    .flatMap((s) => s.split(/<\/?[a-zA-Z]+>/))
    .map((s) => s.replace(/\s+/g, " ").trim())
    .map((s) => s.replace(/^[\s.,:;·()“”«»"'?!¿¡–—-]+|[\s.,:;·()“”«»"'?!¿¡–—…-]+$/g, ""))
    .filter((s) => /\p{L}{2,}/u.test(s));
}

/** English fragments that are not Spanish too, the longest first. */
export function englishOnlyFragments(): string[] {
  const spanish = new Set(leaves(MESSAGES.es as Tree).flatMap(fixedFragments));
  const english = new Set(leaves(MESSAGES.en as Tree).flatMap(fixedFragments));
  return [...english].filter((f) => !spanish.has(f)).sort((a, b) => b.length - a.length);
}

const wordsOf = (s: string) => s.split(/\s+/).filter(Boolean).length;

/**
 * The English fragment a text shows: the whole text is one (a label, a button, a status), or it
 * holds a sentence of one (three words or more, at word boundaries). Null when it shows none.
 */
export function englishIn(text: string, fragments: readonly string[]): string | null {
  const t = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[\s.,:;·()“”«»"'?!¿¡–—-]+|[\s.,:;·()“”«»"'?!¿¡–—…-]+$/g, "");
  if (!t) return null;
  for (const f of fragments) {
    if (t === f) return f;
    if (wordsOf(f) >= 3) {
      const at = t.indexOf(f);
      if (at >= 0) {
        const before = t[at - 1];
        const after = t[at + f.length];
        const boundary = (c: string | undefined) => c === undefined || !/\p{L}/u.test(c);
        if (boundary(before) && boundary(after)) return f;
      }
    }
  }
  return null;
}

/**
 * Every visible text of the page that a person reads: its text nodes (screen-reader-only text
 * included), and the names, titles and placeholders of its visible elements; data (marked
 * `translate="no"`, `<code>` or monospace) and scripts left out.
 */
export async function visibleTexts(page: Page): Promise<{ text: string; where: string }[]> {
  return page.evaluate(() => {
    const out: { text: string; where: string }[] = [];
    const skip = (el: Element | null) =>
      !el ||
      el.closest('[translate="no"], code, script, style, noscript, .font-mono') !== null ||
      !(el as HTMLElement).checkVisibility?.({ visibilityProperty: true });
    const where = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.getAttribute("data-testid") ? `[${el.getAttribute("data-testid")}]` : ""}`;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.textContent?.trim();
      if (!text || !el) continue;
      // The options of a visible select are read when it opens.
      const shownIn = el.tagName === "OPTION" ? el.closest("select") : el;
      if (skip(shownIn)) continue;
      out.push({ text, where: where(el) });
    }
    for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
      if (skip(el)) continue;
      for (const attr of ["aria-label", "title", "placeholder", "alt"]) {
        const value = el.getAttribute(attr)?.trim();
        if (value) out.push({ text: value, where: `${where(el)}@${attr}` });
      }
    }
    return out;
  });
}

/** The English words a page shows: `where: "text" (fragment)`, one line each. */
export async function englishOnPage(page: Page, fragments: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const { text, where } of await visibleTexts(page)) {
    const fragment = englishIn(text, fragments);
    if (fragment) found.push(`${where}: ${JSON.stringify(text.slice(0, 120))} (English: "${fragment}")`);
  }
  return [...new Set(found)];
}
