/**
 * Cells that grow past the author's height to show the whole of their content: the AI widget's
 * answer is as long as the dashboard's data makes it, and is never cut off. A widget says how
 * many pixels more it needs than its cell as the author sized it; the cell is drawn that much
 * taller, its layout takes the whole rows that covers, and the vertical compaction moves the
 * cells below it down. A cell never shrinks
 * below the author's height. Only the top-level grid grows cells (a tab's grid is inside a card
 * of fixed height, where the content scrolls) and not in the one-column flow, where such
 * widgets take their content's height anyway (fitted-cells.ts).
 */
import { createContext, useCallback, useContext, useLayoutEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { GridItemLayout } from "./grid-layouts";

export interface CellGrowth {
  /** The pixels the cell was given beyond the author's height. */
  addedPx: number;
  /** The pixels more than the author's height its content needs (0 or less: none). */
  need(px: number): void;
}

interface GrowthState {
  /** The rows added to each grown cell's layout (what moves the cells below). */
  rows: ReadonlyMap<string, number>;
  /** The pixels added to each grown cell's height: its content's need, exactly. */
  needs: ReadonlyMap<string, number>;
  setNeed(id: string, px: number): void;
}

const CellGrowthContext = createContext<GrowthState | null>(null);
export const CellGrowthProvider = CellGrowthContext.Provider;

/** The growth of the widget's cell, or null where cells do not grow (its content scrolls there). */
export function useCellGrowth(id: string): CellGrowth | null {
  const state = useContext(CellGrowthContext);
  const setNeed = state?.setNeed;
  const need = useCallback((px: number) => setNeed?.(id, px), [setNeed, id]);
  if (!state) return null;
  return { addedPx: state.needs.get(id) ?? 0, need };
}

/** Rows added to a cell for `px` pixels more, with `rowPx` a row and its margin. */
export function rowsFor(px: number, rowPx: number): number {
  return px > 0 && rowPx > 0 ? Math.ceil(px / rowPx) : 0;
}

/** The layout with the grown cells taller by their added rows. */
export function grownLayout(items: readonly GridItemLayout[], rows: ReadonlyMap<string, number>): readonly GridItemLayout[] {
  if (rows.size === 0) return items;
  return items.map((item) => {
    const added = rows.get(item.i) ?? 0;
    return added > 0 ? { ...item, h: item.h + added } : item;
  });
}

/** The grid's side: the rows added per cell, and the context its widgets say their need through. */
export function useGrownCells(rowPx: number): GrowthState {
  const [needs, setNeeds] = useState<ReadonlyMap<string, number>>(() => new Map());
  const rows = useMemo(() => new Map([...needs].map(([id, px]) => [id, rowsFor(px, rowPx)] as const).filter(([, n]) => n > 0)), [needs, rowPx]);
  const setNeed = useCallback(
    (id: string, px: number) =>
      setNeeds((previous) => {
        const next = Math.max(0, Math.ceil(px));
        if ((previous.get(id) ?? 0) === next) return previous;
        const copy = new Map(previous);
        if (next > 0) copy.set(id, next);
        else copy.delete(id);
        return copy;
      }),
    [],
  );
  return useMemo(() => ({ rows, needs, setNeed }), [rows, needs, setNeed]);
}

/**
 * The widget's side: measures its content against the box it scrolls in (before paint, and again
 * whenever either changes size) and tells the grid how much more than the author's height it
 * needs: the content's height less the box's, plus what the cell was already given.
 */
export function useGrowToContent(growth: CellGrowth | null, box: RefObject<HTMLElement | null>, content: RefObject<HTMLElement | null>, key: unknown): void {
  // What the cell was given, as committed with the box's height it is measured against.
  const added = useRef(0);
  const addedPx = growth?.addedPx ?? 0;
  useLayoutEffect(() => {
    added.current = addedPx;
  }, [addedPx]);
  const need = growth?.need;
  useLayoutEffect(() => {
    const boxElement = box.current;
    const contentElement = content.current;
    if (!need || !boxElement || !contentElement) return;
    const measure = () => {
      const top = parseFloat(getComputedStyle(boxElement).paddingTop) || 0;
      need(Math.ceil(contentElement.getBoundingClientRect().height + top) - boxElement.clientHeight + added.current);
    };
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(boxElement);
    observer.observe(contentElement);
    return () => observer.disconnect();
  }, [need, box, content, key]);
}
