/**
 * The dashboard grid for viewers: react-grid-layout's own layout rules (its core: breakpoint
 * by width, vertical compaction, item positions), without its drag-and-resize components,
 * which a viewer never uses. Each widget is one absolutely placed cell, so the grid's work per
 * widget is constant, and cells mount a few at a time from the top (paced slices), so a large
 * dashboard is no single long commit. One column on phones; a cell whose content is longer than
 * the author made it (an AI answer) grows (grown-cells.tsx). The editor (surfaces/app) uses the full
 * react-grid-layout.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { widgetCommitPacer } from "../widgets/query/paced-commits";
import { bottom, calcGridItemPosition, cloneLayoutItem, correctBounds, getBreakpointFromWidth, getCompactor } from "react-grid-layout/core";
import type { DashboardLayout, DashboardWidget } from "../../schema/dashboard";
import { WidgetRenderer } from "./widget-renderer";
import { FilterWiringProvider } from "./filter-wiring-context";
import { buildGridLayouts, isOneColumn, resolveGridConfig, type GridItemLayout } from "./grid-layouts";
import { flowCells, flowsByRows, isFittedInOneColumn, useFittedHeights } from "./fitted-cells";
import { CellGrowthProvider, grownLayout, useGrownCells } from "./grown-cells";
import "./dashboard-grid.css";

export interface DashboardGridProps {
  widgets: DashboardWidget[];
  layout: DashboardLayout | null | undefined;
  /** A tab's grid inside a tabs card: no outer padding, the card has its own. */
  nested?: boolean;
}

const compactor = getCompactor("vertical");

/** Widgets mounted in the first commit, then this many more a slice (top to bottom). */
export const FIRST_MOUNT = 8;
export const MOUNT_STEP = 4;

/**
 * How many of `total` cells are mounted: a first few at once, the rest a few at a time in
 * paced slices, so a large dashboard is not one long commit.
 */
function useProgressiveCount(total: number): number {
  const [count, setCount] = useState(Math.min(total, FIRST_MOUNT));
  useEffect(() => {
    if (count >= total) return;
    let live = true;
    widgetCommitPacer.pace(() => {
      if (live) setCount((n) => Math.min(total, n + MOUNT_STEP));
    });
    return () => {
      live = false;
    };
  }, [count, total]);
  return Math.min(count, total);
}

/** The element's content width, measured before paint and kept in step with resizes. */
function useContentWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(Math.floor(element.getBoundingClientRect().width));
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver((entries) => {
      const next = Math.floor(entries[0]?.contentRect.width ?? 0);
      if (next > 0) setWidth(next);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/**
 * The layout react-grid-layout would show: bounds corrected to the columns, compacted upwards.
 * The compactor leaves static items where they are, so the items are compacted as movable ones:
 * a gap a layout saved through the API or as code leaves (a widget removed) closes for viewers,
 * as the editor closes it when a widget is removed there.
 */
export function placedLayout(items: readonly GridItemLayout[], cols: number): GridItemLayout[] {
  const movable = items.map((item) => ({ ...cloneLayoutItem(item), static: false }));
  return compactor.compact(correctBounds(movable, { cols }), cols).map((item) => ({ ...cloneLayoutItem(item), static: true })) as GridItemLayout[];
}

export function DashboardGrid(props: DashboardGridProps): ReactNode {
  const [containerRef, width] = useContentWidth();
  const nested = props.nested === true;
  const config = useMemo(() => {
    const resolved = resolveGridConfig(props.layout);
    return nested ? { ...resolved, containerPadding: [0, 0] as [number, number] } : resolved;
  }, [props.layout, nested]);
  const layouts = useMemo(() => buildGridLayouts(props.widgets, config), [props.widgets, config]);
  const breakpoint = width > 0 ? getBreakpointFromWidth(config.breakpoints, width) : null;
  const cols = breakpoint ? config.cols[breakpoint] : 0;
  const authored = useMemo(() => (breakpoint ? placedLayout(layouts[breakpoint], cols) : []), [layouts, breakpoint, cols]);
  // One column (a phone): text and controls take their content's height, and the rows flow.
  const fitted = useFittedHeights();
  // A phone layout the author arranged is shown as arranged.
  const arranged = breakpoint !== null && props.widgets.some((w) => w.responsiveLayouts?.[breakpoint]);
  const fitting = breakpoint !== null && isOneColumn(breakpoint, cols) && !arranged && flowsByRows(authored);
  // Elsewhere a widget whose content is longer than its cell (an AI answer) grows it (grown-cells.tsx).
  const grown = useGrownCells(config.rowHeight + config.margin[1]);
  const growing = !nested && !fitting;
  const placed = useMemo(
    () => (growing && grown.rows.size > 0 && breakpoint ? placedLayout(grownLayout(layouts[breakpoint], grown.rows), cols) : authored),
    [growing, grown.rows, layouts, breakpoint, cols, authored],
  );
  const renderGrid = useCallback((widgets: DashboardWidget[]) => <DashboardGrid widgets={widgets} layout={props.layout} nested />, [props.layout]);
  // A widget's element stays the same while the widgets do: a new width only moves the cells.
  const cells = useMemo(
    () => new Map(props.widgets.map((widget) => [widget.id, <WidgetRenderer key={widget.id} widget={widget} renderGrid={renderGrid} />])),
    [props.widgets, renderGrid],
  );

  // Reading order: the cells at the top mount first.
  const order = useMemo(() => new Map([...placed].sort((a, b) => a.y - b.y || a.x - b.x).map((item, index) => [item.i, index])), [placed]);
  const mounted = useProgressiveCount(placed.length);

  const params = {
    cols,
    margin: config.margin,
    containerPadding: config.containerPadding,
    containerWidth: width,
    rowHeight: config.rowHeight,
    maxRows: Infinity,
  };
  const rows = bottom(placed);
  const gridHeight = rows > 0 ? rows * config.rowHeight + (rows - 1) * config.margin[1] + config.containerPadding[1] * 2 : 0;
  // A grown cell is drawn as tall as the author made it and what its content needs beyond that.
  const grownHeight = (item: GridItemLayout) => {
    const added = growing ? grown.rows.get(item.i) : undefined;
    return added ? calcGridItemPosition(params, item.x, item.y, item.w, item.h - added).height + grown.needs.get(item.i)! : undefined;
  };
  const fittedIds = useMemo(() => new Set(props.widgets.filter(isFittedInOneColumn).map((w) => w.id)), [props.widgets]);
  const flow = fitting
    ? flowCells(placed, { rowHeight: config.rowHeight, marginY: config.margin[1], paddingY: config.containerPadding[1] }, fitted.heights)
    : null;
  const height = flow ? flow.height : gridHeight;

  return (
    <FilterWiringProvider widgets={props.widgets}>
      <CellGrowthProvider value={growing ? grown : null}>
        <div className={nested ? "svc-grid is-nested" : "svc-grid"} ref={containerRef}>
          {breakpoint ? (
            <div className="svc-grid-layout" style={{ height }}>
              {placed.map((item) => {
                const cell = cells.get(item.i);
                if (!cell) return null;
                const shown = (order.get(item.i) ?? 0) < mounted;
                const position = calcGridItemPosition(params, item.x, item.y, item.w, item.h);
                const box = flow?.boxes.get(item.i);
                const top = box ? box.top : position.top;
                // A fitted cell has no height of its own: its content's is measured (once mounted).
                const fit = flow !== null && fittedIds.has(item.i);
                return (
                  <div
                    key={item.i}
                    ref={fit && shown ? fitted.cellRef(item.i) : undefined}
                    className={fit ? "svc-grid-item is-fitted" : "svc-grid-item"}
                    style={{
                      width: position.width,
                      height: fit ? undefined : (box?.height ?? grownHeight(item) ?? position.height),
                      transform: `translate(${position.left}px, ${top}px)`,
                    }}
                  >
                    {shown ? cell : null}
                  </div>
                );
              })}
            </div>
          ) : null}
        </div>
      </CellGrowthProvider>
    </FilterWiringProvider>
  );
}
