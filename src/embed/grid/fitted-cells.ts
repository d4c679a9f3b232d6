/**
 * Cells that take the height of their content in the one-column (phone) layout: a text widget,
 * an AI answer and the controls. Read top to bottom on a phone, a desktop-sized text cell left empty space
 * under its text (or cut a long one), and a control's cell rounded up to whole grid rows. The
 * other widgets (charts, KPIs, tables) keep their rows: they fill whatever they are given.
 */
import { useCallback, useLayoutEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { DashboardWidget } from "../../schema/dashboard";
import type { GridItemLayout } from "./grid-layouts";

/** The widgets whose height is their content's in the one-column layout (an AI answer too: it is never cut off). */
export function isFittedInOneColumn(widget: DashboardWidget): boolean {
  return widget.type === "TEXT" || widget.type === "AI" || widget.type === "FILTER" || widget.type === "TIME_GRAIN";
}

export interface CellBox {
  top: number;
  height: number;
}

/**
 * Each cell's top and height in px, row after row: the cells of one row (the same `y`, two
 * controls side by side) share it, and a row is as tall as its tallest cell — its measured
 * height where it has one, else its grid rows'. Returns the boxes and the whole height.
 */
export function flowCells(
  placed: readonly GridItemLayout[],
  grid: { rowHeight: number; marginY: number; paddingY: number },
  measured: ReadonlyMap<string, number>,
): { boxes: Map<string, CellBox>; height: number } {
  const rowsPx = (h: number) => h * grid.rowHeight + (h - 1) * grid.marginY;
  const heightOf = (item: GridItemLayout) => measured.get(item.i) ?? rowsPx(item.h);
  const rows = new Map<number, GridItemLayout[]>();
  for (const item of [...placed].sort((a, b) => a.y - b.y || a.x - b.x)) rows.set(item.y, [...(rows.get(item.y) ?? []), item]);
  const boxes = new Map<string, CellBox>();
  let top = grid.paddingY;
  for (const row of rows.values()) {
    const height = Math.max(...row.map(heightOf));
    for (const item of row) boxes.set(item.i, { top, height: measured.has(item.i) ? heightOf(item) : height });
    top += height + grid.marginY;
  }
  return { boxes, height: rows.size > 0 ? top - grid.marginY + grid.paddingY : 0 };
}

/** Whether the one-column layout's rows can flow: every row's cells start and end together (no author's arrangement of its own). */
export function flowsByRows(placed: readonly GridItemLayout[]): boolean {
  const heights = new Map<number, number>();
  for (const item of placed) {
    if ((heights.get(item.y) ?? item.h) !== item.h) return false;
    heights.set(item.y, item.h);
  }
  const rows = [...heights].sort((a, b) => a[0] - b[0]);
  return rows.every(([y, h], k) => k === rows.length - 1 || rows[k + 1]![0] >= y + h);
}

const same = (a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>) => a.size === b.size && [...a].every(([id, h]) => b.get(id) === h);

/**
 * The measured heights of the fitted cells: `cellRef(id)` goes on each fitted cell (drawn
 * without a height of its own). Measured after every commit and again whenever a cell's
 * content changes size (markdown rendered, a translation, a narrower frame), before paint.
 */
export function useFittedHeights(): { heights: ReadonlyMap<string, number>; cellRef: (id: string) => (element: HTMLDivElement | null) => void } {
  const elements = useRef(new Map<string, HTMLDivElement>());
  const refs = useRef(new Map<string, (element: HTMLDivElement | null) => void>());
  const observer = useRef<ResizeObserver | null>(null);
  const [heights, setHeights] = useState<ReadonlyMap<string, number>>(() => new Map());

  const measure = useCallback(() => {
    const next = new Map<string, number>();
    for (const [id, element] of elements.current) next.set(id, Math.ceil(element.getBoundingClientRect().height));
    setHeights((previous) => (same(previous, next) ? previous : next));
  }, []);

  useLayoutEffect(measure);
  useLayoutEffect(() => {
    if (typeof ResizeObserver === "undefined") return;
    const o = new ResizeObserver(() => flushSync(measure));
    observer.current = o;
    for (const element of elements.current.values()) o.observe(element);
    return () => {
      o.disconnect();
      observer.current = null;
    };
  }, [measure]);

  const cellRef = useCallback((id: string) => {
    let ref = refs.current.get(id);
    if (!ref) {
      ref = (element) => {
        const previous = elements.current.get(id);
        if (previous && previous !== element) observer.current?.unobserve(previous);
        if (element) {
          elements.current.set(id, element);
          observer.current?.observe(element);
        } else elements.current.delete(id);
      };
      refs.current.set(id, ref);
    }
    return ref;
  }, []);

  return { heights, cellRef };
}
