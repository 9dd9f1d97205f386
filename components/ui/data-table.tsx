"use client";

import type { ReactNode } from "react";
import { joinClasses } from "./class-names";
import { CursorPagerNav, type CursorPagerNavProps } from "./cursor-pager";
import { PHONE_QUERY, useMediaQuery } from "./media-query";
import { SafeText } from "./safe-text";
import { ScrollRegion } from "./scroll-region";

export interface Column {
  label: string;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
  /** The label is for screen readers only (a column of buttons). */
  hiddenLabel?: boolean;
  /** Classes of this column's cells (e.g. `font-mono text-xs`). */
  cellClassName?: string;
}

export interface Row {
  key: string;
  cells: ReactNode[];
  className?: string;
}

/** A numeric column: `["Terminal", numeric("Sales")]` reads better than the object. */
export function numeric(label: string): Column {
  return { label, numeric: true };
}

/**
 * A cell as shown: text (names, device ids, products, comments: data people or the upstream wrote)
 * through SafeText, isolated and with its controls escaped; anything else as it is. In a table the
 * text keeps its width (the table scrolls in its box); in a card it wraps anywhere.
 */
function shown(cell: ReactNode, wrap: "anywhere" | "none"): ReactNode {
  return typeof cell === "string" ? <SafeText text={cell} wrap={wrap} words /> : cell;
}

/** Tables of more columns than this become cards on a phone (fewer fit its width as they are). */
const PHONE_TABLE_MAX_COLUMNS = 3;

/**
 * A plain table with its caption, in a box that scrolls when it is too wide (or too long, with
 * `scrollClassName`). Every chart has one too, so its figures are readable by keyboard and screen
 * reader. With `empty`, that is shown instead of a table without rows; with `pager`, the Newer /
 * Older buttons of a cursor-paged list follow the table.
 *
 * On a phone (below 640 px), a table of more than three columns is shown as stacked cards instead,
 * one per row, each value under its column's label, so that nothing scrolls sideways; `phone`
 * chooses for a given table.
 */
export function DataTable({
  caption,
  columns,
  rows,
  hiddenCaption,
  scrollClassName,
  rowHeaders = false,
  empty,
  pager,
  phone,
}: {
  caption: string;
  columns: (Column | string)[];
  rows: Row[];
  hiddenCaption?: boolean;
  /** The scroll box's classes (default: scrolls sideways when too wide). */
  scrollClassName?: string;
  /** The first cell of each row heads the row (`<th scope="row">`). */
  rowHeaders?: boolean;
  empty?: ReactNode;
  pager?: CursorPagerNavProps;
  /** The layout on a phone (default: cards when there are more than three columns). */
  phone?: "cards" | "table";
}) {
  const cols = columns.map((c) => (typeof c === "string" ? { label: c } : c));
  const onPhone = useMediaQuery(PHONE_QUERY);
  const cards = onPhone && (phone ?? (cols.length > PHONE_TABLE_MAX_COLUMNS ? "cards" : "table")) === "cards";
  return (
    <>
      {rows.length === 0 && empty !== undefined ? (
        empty
      ) : cards ? (
        <Cards caption={caption} hiddenCaption={hiddenCaption} columns={cols} rows={rows} />
      ) : (
        <ScrollRegion label={caption} className={scrollClassName}>
          <table className="w-full text-left text-sm">
            <caption className={hiddenCaption ? "sr-only" : "mb-1 text-left text-xs text-slate-500"}>
              {caption}
            </caption>
            <thead>
              <tr className="border-b">
                {cols.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: two columns may share a label
                  <th key={i} scope="col" className={joinClasses("py-1 pr-3", c.numeric && "text-right")}>
                    {c.hiddenLabel ? <span className="sr-only">{c.label}</span> : c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key} className={joinClasses("border-b border-slate-100", r.className)}>
                  {r.cells.map((cell, i) => {
                    const col = cols[i];
                    const className = joinClasses(
                      "py-1 pr-3",
                      col?.numeric && "text-right tabular-nums",
                      col?.cellClassName,
                    );
                    return rowHeaders && i === 0 ? (
                      // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                      <th key={i} scope="row" className={joinClasses(className, "font-medium")}>
                        {shown(cell, "none")}
                      </th>
                    ) : (
                      // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                      <td key={i} className={className}>
                        {shown(cell, "none")}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {pager && <CursorPagerNav {...pager} />}
    </>
  );
}

/**
 * The rows as a list of cards: the first value heads each card, the others follow under their
 * column's label; values of a column whose label is for screen readers only (buttons) close it.
 */
function Cards({
  caption,
  hiddenCaption,
  columns,
  rows,
}: {
  caption: string;
  hiddenCaption?: boolean;
  columns: Column[];
  rows: Row[];
}) {
  const rest = columns.map((col, i) => ({ col, i })).slice(1);
  const labelled = rest.filter(({ col }) => !col.hiddenLabel);
  const unlabelled = rest.filter(({ col }) => col.hiddenLabel);
  return (
    <div>
      {!hiddenCaption && <p className="mb-1 text-xs text-slate-500">{caption}</p>}
      <ul aria-label={caption} className="space-y-2">
        {rows.map((r) => (
          <li
            key={r.key}
            className={joinClasses("rounded border border-slate-200 bg-white p-3 text-sm", r.className)}
          >
            <div className="mb-1 font-medium [overflow-wrap:anywhere]">{shown(r.cells[0], "anywhere")}</div>
            <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1">
              {labelled.map(({ col, i }) => (
                <div key={i} className="contents">
                  <dt className="text-slate-600">{col.label}</dt>
                  <dd
                    className={joinClasses(
                      "[overflow-wrap:anywhere]",
                      col.numeric && "tabular-nums",
                      col.cellClassName,
                    )}
                  >
                    {shown(r.cells[i], "anywhere")}
                  </dd>
                </div>
              ))}
            </dl>
            {unlabelled.length > 0 && (
              <div className="mt-2 flex flex-wrap gap-2">
                {unlabelled.map(({ i }) => (
                  <div key={i}>{shown(r.cells[i], "anywhere")}</div>
                ))}
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
