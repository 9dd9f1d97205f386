import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A Panel is a region named by its title, and a table that scrolls becomes a region named by its
 * caption (ScrollRegion). A table captioned like its panel makes two landmarks of one name as soon
 * as it scrolls (axe `landmark-unique`), which happens only with enough rows: so it is checked here,
 * in the source, rather than left to the data a browser test happens to see.
 */

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".tsx") ? [join(dir, e.name)] : [],
  );
}

/** `title={…}` of each Panel and the `caption={…}`s directly inside it, as written. */
function panelsCaptionedLikeTheirTitle(source: string): string[] {
  const found: string[] = [];
  for (const panel of source.matchAll(/<Panel\b[^>]*?\btitle=\{([^}]*\)?)\}[^>]*>([\s\S]*?)<\/Panel>/g)) {
    const [, title, body] = panel;
    for (const caption of body!.matchAll(/\bcaption=\{([^}]*\)?)\}/g))
      if (caption[1] === title) found.push(title!);
  }
  return found;
}

describe("landmark names", () => {
  it("the check finds a table captioned like its panel", () => {
    const bad = `<Panel title={t("byTax")} id="x"><DataTable caption={t("byTax")} hiddenCaption /></Panel>`;
    const good = `<Panel title={t("byTax")} id="x"><DataTable caption={t("byTaxCaption")} /></Panel>`;
    expect(panelsCaptionedLikeTheirTitle(bad)).toEqual(['t("byTax")']);
    expect(panelsCaptionedLikeTheirTitle(good)).toEqual([]);
  });

  it("no table is captioned like the panel it is in", () => {
    const found = sources("components").flatMap((file) =>
      panelsCaptionedLikeTheirTitle(readFileSync(file, "utf8")).map((title) => `${file}: ${title}`),
    );
    expect(found).toEqual([]);
  });
});
