import { expect } from "vitest";
import type { TestApi } from "./test-api";

export { canonicalSummary, type SummaryData, summaryFromLists } from "./summary-model";

/**
 * Independent models of the read side, for data-correctness tests: a strict pagination walker and
 * the sales summary recomputed from list items (what a reconciling client does).
 */

export interface ListBody<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface WalkResult<T> {
  items: T[];
  /** Item count of every page, in order. */
  pageSizes: number[];
}

/**
 * Follows `next_cursor` while `has_more` is true, asserting the envelope rules on every page:
 * `has_more` false ⇔ `next_cursor` null, the cursor is the last item's id, a page never exceeds
 * `limit`, and a page with more after it is full (the scope is filtered in the query).
 * `startingAfter` starts the walk after that id; `afterPage` runs between page fetches (to write
 * records during the walk).
 */
export async function walkPages<T extends { id: string }>(
  api: TestApi,
  path: string,
  key: string,
  limit: number,
  options: { startingAfter?: string; afterPage?: (pageIndex: number, cursor: string) => Promise<void> } = {},
): Promise<WalkResult<T>> {
  const items: T[] = [];
  const pageSizes: number[] = [];
  let cursor: string | null = options.startingAfter ?? null;
  for (let page = 0; ; page++) {
    if (page > 5000) throw new Error(`walk of ${path} does not end`);
    const sep = path.includes("?") ? "&" : "?";
    const url: string = `${path}${sep}limit=${limit}${cursor ? `&starting_after=${cursor}` : ""}`;
    const res = await api.get<ListBody<T>>(url, key);
    expect(res.status, `${url}: ${res.text}`).toBe(200);
    const body = res.body;
    expect(body.object).toBe("list");
    expect(body.data.length, url).toBeLessThanOrEqual(limit);
    expect(body.next_cursor === null, `${url}: has_more ⇔ next_cursor`).toBe(!body.has_more);
    if (body.has_more) {
      expect(body.data.length, `${url}: a page followed by more is full`).toBe(limit);
      expect(body.next_cursor).toBe(body.data[body.data.length - 1].id);
    }
    items.push(...body.data);
    pageSizes.push(body.data.length);
    if (!body.has_more) return { items, pageSizes };
    cursor = body.next_cursor as string;
    await options.afterPage?.(page, cursor);
  }
}

/** Ids strictly increasing: ordered by id, no duplicate. */
export function expectStrictlyAscending(ids: string[], context = "") {
  for (let i = 1; i < ids.length; i++) {
    if (!(ids[i] > ids[i - 1])) {
      throw new Error(`${context}: ids not strictly ascending at ${i}: ${ids[i - 1]} then ${ids[i]}`);
    }
  }
}
