/**
 * Table report: sortable headers (buttons with aria-sort), formatted cells in the viewer's
 * locale, virtualised rows so long results stay fast; measure cells are buttons that drill.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { t, tCount } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { ArrowDownIcon, ArrowUpIcon } from "../../ui/icons";
import { formatCell, type CellFormatContext } from "../query/format-cell";
import { nextSort, sortRows, visibleRowRange, type TableColumn, type TableSort } from "./table-model";
import { useScrollEdges } from "./use-scroll-edges";
import "../../ui/buttons.css";
import "../../ui/empty.css";
import "./table-view.css";

export const TABLE_ROW_HEIGHT = 36;

export interface TableViewProps {
  columns: TableColumn[];
  rows: Record<string, unknown>[];
  /** Caption for assistive technology. */
  caption: string;
  onDrill?: (member: string, value: unknown, row: Record<string, unknown>) => void;
  /** Server-side sorting (paged results): the current sort, and where a header click goes. */
  sort?: TableSort | null;
  onSortChange?: (sort: TableSort | null) => void;
  /** Footer text instead of the row count (a pager's range). */
  footer?: React.ReactNode;
}

/** Approximate width in px of text at the table's 13 px font (digits are tabular, ~7.4 px). */
const textWidth = (text: string) => Math.ceil(text.length * 7.4);
const CELL_PADDING = 26;

/** Minimum width of each column: its widest formatted value of the first 200 rows, or its header on two lines. */
export function columnWidths(columns: readonly TableColumn[], rows: readonly Record<string, unknown>[], ctx: CellFormatContext): number[] {
  return columns.map((c) => {
    let widest = 0;
    for (const row of rows.slice(0, 200)) widest = Math.max(widest, textWidth(formatCell(row[c.key], c, ctx)));
    const words = c.title.split(/\s+/);
    const longestWord = Math.max(...words.map((w) => textWidth(w)));
    const header = Math.max(longestWord, textWidth(c.title) / 2) + 16;
    return Math.max(64, Math.ceil(Math.max(widest, header)) + CELL_PADDING);
  });
}

export function TableView(props: TableViewProps) {
  const locale = useEmbedStore((s) => s.locale);
  const timezone = useEmbedStore((s) => s.timezone);
  const [localSort, setLocalSort] = useState<TableSort | null>(null);
  const controlled = props.onSortChange !== undefined;
  const sort = controlled ? (props.sort ?? null) : localSort;
  const setSort = controlled ? props.onSortChange! : setLocalSort;
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(480);
  const empty = props.rows.length === 0;
  // The scroll area's height, from a ResizeObserver: read in a commit it would force a layout
  // per table (tens of ms on a dashboard of many tables).
  const scrollRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = scrollRef.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver((entries) => {
      const height = Math.round(entries[0]?.contentRect.height ?? 0);
      if (height) setViewport(height);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [empty]);
  const sorted = useMemo(() => (controlled ? props.rows : sortRows(props.rows, sort, locale)), [controlled, props.rows, sort, locale]);
  const range = visibleRowRange(scrollTop, viewport, TABLE_ROW_HEIGHT, sorted.length);
  const ctx = { locale, timezone };
  // Each column is at least as wide as its widest value (of the first rows) and its header on
  // two lines; narrow containers scroll sideways instead of cutting values or headers.
  const widths = useMemo(() => columnWidths(props.columns, props.rows, ctx), [props.columns, props.rows, locale, timezone]); // eslint-disable-line react-hooks/exhaustive-deps
  const template = props.columns.map((c, i) => `minmax(${widths[i]}px, ${c.isMeasure ? 1 : 1.4}fr)`).join(" ");
  const minWidth = widths.reduce((sum, w) => sum + w, 0);
  // Columns beyond the widget's width: an edge shows that more wait to the side.
  const side = useScrollEdges(scrollRef, "x", minWidth);

  if (props.rows.length === 0) return <div className="svc-empty">{t(locale, "noData")}</div>;
  return (
    <div
      className="svc-table"
      role="table"
      aria-label={props.caption}
      aria-rowcount={sorted.length + 1}
      data-more-left={side.before || undefined}
      data-more-right={side.after || undefined}
    >
      <div
        className="svc-table-scroll"
        tabIndex={0}
        onScroll={(e) => {
          setScrollTop(e.currentTarget.scrollTop);
          side.measure();
        }}
        ref={scrollRef}
      >
        <div className="svc-table-inner" style={{ minWidth }}>
          <div className="svc-table-head" role="rowgroup">
            <div className="svc-table-row is-head" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
              {props.columns.map((c) => {
                const active = sort?.key === c.key ? sort.direction : null;
                return (
                  <div
                    key={c.key}
                    role="columnheader"
                    className={`svc-table-cell ${c.isMeasure ? "is-numeric" : ""}`}
                    aria-sort={active === "asc" ? "ascending" : active === "desc" ? "descending" : "none"}
                  >
                    <button
                      type="button"
                      className="svc-sort-button"
                      onClick={() => setSort(nextSort(sort, c.key))}
                      title={t(locale, active === "asc" ? "sort.descending" : "sort.ascending")}
                    >
                      <span>{c.title}</span>
                      {active === "asc" ? <ArrowUpIcon size={12} /> : active === "desc" ? <ArrowDownIcon size={12} /> : null}
                    </button>
                  </div>
                );
              })}
            </div>
          </div>
          <div className="svc-table-body" role="rowgroup" style={{ height: sorted.length * TABLE_ROW_HEIGHT }}>
            {sorted.slice(range.start, range.end).map((row, offset) => {
              const index = range.start + offset;
              return (
                <div
                  key={index}
                  role="row"
                  aria-rowindex={index + 2}
                  className={`svc-table-row ${index % 2 ? "is-odd" : ""}`}
                  style={{ gridTemplateColumns: template, transform: `translateY(${index * TABLE_ROW_HEIGHT}px)`, height: TABLE_ROW_HEIGHT }}
                >
                  {props.columns.map((c) => {
                    const text = formatCell(row[c.key], c, ctx);
                    return (
                      <div key={c.key} role="cell" className={`svc-table-cell ${c.isMeasure ? "is-numeric" : ""}`}>
                        {c.drillable && props.onDrill && row[c.key] !== null && row[c.key] !== undefined ? (
                          <button
                            type="button"
                            className="svc-drill-button"
                            onClick={() => props.onDrill!(c.key, row[c.key], row)}
                            title={t(locale, "drillDown")}
                          >
                            {text}
                          </button>
                        ) : (
                          text
                        )}
                      </div>
                    );
                  })}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      <div className="svc-table-footer">{props.footer ?? tCount(locale, "rows", sorted.length)}</div>
    </div>
  );
}
