/**
 * Grid layouts per breakpoint from the DashboardLayout and each widget's position /
 * responsiveLayouts. A breakpoint a widget has no layout for is derived from its desktop
 * position scaled to the column count; the smallest breakpoint (and any of two columns or
 * fewer) reads the dashboard top to bottom, like a phone.
 */
import type { BreakpointKey, DashboardLayout, DashboardWidget } from "../../schema/dashboard";

// Listed here (same order as the schema) so the schema module's validators stay out of the bundle.
const BREAKPOINT_KEYS: readonly BreakpointKey[] = ["lg", "md", "sm", "xs", "xxs"];

export const DEFAULT_BREAKPOINTS: Record<BreakpointKey, number> = { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 };
export const DEFAULT_COLS: Record<BreakpointKey, number> = { lg: 12, md: 10, sm: 6, xs: 4, xxs: 1 };
export const DEFAULT_ROW_HEIGHT = 60;
export const DEFAULT_MARGIN: [number, number] = [16, 16];
export const DEFAULT_CONTAINER_PADDING: [number, number] = [0, 0];

export interface GridItemLayout {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  static: true;
}

export interface ResolvedGridConfig {
  breakpoints: Record<BreakpointKey, number>;
  cols: Record<BreakpointKey, number>;
  rowHeight: number;
  margin: [number, number];
  containerPadding: [number, number];
}

function pair(value: number[] | null | undefined, fallback: [number, number]): [number, number] {
  if (!value || value.length === 0) return fallback;
  const [a, b = a] = value;
  return [Math.max(0, a!), Math.max(0, b!)];
}

export function resolveGridConfig(layout: DashboardLayout | null | undefined): ResolvedGridConfig {
  const breakpoints = { ...DEFAULT_BREAKPOINTS };
  const cols = { ...DEFAULT_COLS };
  for (const key of BREAKPOINT_KEYS) {
    const bp = layout?.breakpoints?.[key];
    if (typeof bp === "number" && bp >= 0) breakpoints[key] = bp;
    const c = layout?.cols?.[key];
    if (typeof c === "number" && c > 0) cols[key] = c;
  }
  // The phone layout counts in halves: every widget spans the full width, and compact controls
  // (value pickers) pair up two to a row, so the filter bar stays short.
  cols.xxs = cols.xxs * 2;
  return {
    breakpoints,
    cols,
    rowHeight: layout?.rowHeight && layout.rowHeight > 0 ? layout.rowHeight : DEFAULT_ROW_HEIGHT,
    margin: pair(layout?.margin, DEFAULT_MARGIN),
    containerPadding: pair(layout?.containerPadding, DEFAULT_CONTAINER_PADDING),
  };
}

/** Height in px a control (FILTER, TIME_GRAIN: a label over one input row) needs. */
export const CONTROL_HEIGHT_PX = 72;

/** Height in px of a compact phone control (a value picker with its label inside, a grain switch). */
export const COMPACT_CONTROL_HEIGHT_PX = 36;

/** Grid rows that hold a control at the config's row height and margin. */
export function controlRows(config: ResolvedGridConfig, height = CONTROL_HEIGHT_PX): number {
  const [, marginY] = config.margin;
  return Math.max(1, Math.ceil((height + marginY) / (config.rowHeight + marginY)));
}

/** Controls that are compact on phones: label inside (value pickers) or none needed (grain switch). */
function isCompactOnPhone(widget: DashboardWidget): boolean {
  return widget.type === "TIME_GRAIN" || isHalfWidthOnPhone(widget);
}

const isControl = (widget: DashboardWidget) => widget.type === "FILTER" || widget.type === "TIME_GRAIN";

/** Controls narrow enough to share a phone row with another: value pickers and number ranges (a date range and a grain switch need the width). */
export function isHalfWidthOnPhone(widget: DashboardWidget): boolean {
  if (widget.type !== "FILTER") return false;
  const control = (widget.config as { control?: unknown } | null | undefined)?.control;
  return control !== "dateRange";
}

/**
 * Scales the desktop positions of the `derived` items to `cols` columns, a row at a time (the
 * items that share a top and a height), by their edges, so neighbours never overlap (an
 * overlap made the grid push the later items to the bottom: four KPI cards split two and two).
 * A row of equal widths that the columns cannot hold evenly (4 cards in 10 columns) wraps into
 * rows that they can (2 and 2, each half the width), and what is below moves down to make room.
 */
function scaleDerived(items: GridItemLayout[], derived: ReadonlySet<string>, cols: number, baseCols: number): void {
  const scale = cols / baseCols;
  const edge = (x: number) => Math.min(cols, Math.max(0, Math.round(x * scale)));
  const rows = new Map<string, GridItemLayout[]>();
  for (const item of items) {
    if (!derived.has(item.i)) continue;
    const key = `${item.y}:${item.h}`;
    rows.set(key, [...(rows.get(key) ?? []), item]);
  }
  const grown: { y: number; by: number }[] = [];
  const wrapped = new Set<string>();
  const top = new Map(items.map((item) => [item.i, item.y]));
  for (const row of rows.values()) {
    row.sort((a, b) => a.x - b.x);
    const n = row.length;
    const equal = n > 1 && row.every((item) => item.w === row[0]!.w) && row[0]!.w * n === baseCols;
    const perRow = equal && cols % n !== 0 ? [...Array(n).keys()].map((k) => n - k).find((k) => n % k === 0 && cols % k === 0) : undefined;
    if (perRow && perRow < n) {
      const width = cols / perRow;
      const { y, h } = row[0]!;
      row.forEach((item, k) => {
        Object.assign(item, { x: (k % perRow) * width, w: width, y: y + Math.floor(k / perRow) * h });
        wrapped.add(item.i);
      });
      grown.push({ y, by: (n / perRow - 1) * h });
      continue;
    }
    for (const item of row) {
      const x = edge(item.x);
      const w = Math.max(1, edge(item.x + item.w) - x);
      Object.assign(item, { x: Math.min(x, cols - w), w });
    }
  }
  // Everything below a wrapped row moves down by the rows it gained.
  for (const item of items) {
    if (!derived.has(item.i) || wrapped.has(item.i)) continue;
    const below = grown.filter((g) => top.get(item.i)! > g.y).reduce((sum, g) => sum + g.by, 0);
    if (below) item.y += below;
  }
}

/** Widgets in a desktop row of two or more of the same size that fills the row (a row of KPI cards). */
function equalRowMembers(widgets: readonly DashboardWidget[], baseCols: number): Set<string> {
  const rows = new Map<string, DashboardWidget[]>();
  for (const widget of widgets) {
    if (isControl(widget)) continue;
    const key = `${widget.position.y}:${widget.position.h}:${widget.position.w}`;
    rows.set(key, [...(rows.get(key) ?? []), widget]);
  }
  return new Set([...rows.values()].filter((row) => row.length > 1 && row.length * row[0]!.position.w >= baseCols).flatMap((row) => row.map((w) => w.id)));
}

const overlap = (a: GridItemLayout, b: GridItemLayout) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Moves items down, top to bottom, until none overlaps another: static items that overlap are
 * pushed by the grid to its very bottom (a widget's own layout for a breakpoint, say four KPI
 * cards two by two, overlapping a chart placed from the desktop layout). At the same top, an
 * item with its own layout keeps its place and a derived one moves.
 */
function settle(items: GridItemLayout[], derived: ReadonlySet<string>): void {
  const order = [...items].sort((a, b) => a.y - b.y || Number(derived.has(a.i)) - Number(derived.has(b.i)) || a.x - b.x);
  const placed: GridItemLayout[] = [];
  for (const item of order) {
    for (let hit = placed.find((p) => overlap(p, item)); hit; hit = placed.find((p) => overlap(p, item))) item.y = hit.y + hit.h;
    placed.push(item);
  }
}

/** Phones, and any breakpoint of two columns or fewer: the dashboard reads top to bottom. */
export function isOneColumn(bp: BreakpointKey, cols: number): boolean {
  return bp === "xxs" || cols <= 2;
}

/**
 * Widget layouts for every breakpoint, all static (viewers don't rearrange). In the one-column
 * layout a control without a layout of its own for it takes only the rows its input needs:
 * stacked one under another, desktop-sized control cells would be mostly empty space.
 */
export function buildGridLayouts(widgets: readonly DashboardWidget[], config: ResolvedGridConfig): Record<BreakpointKey, GridItemLayout[]> {
  const baseCols = config.cols.lg;
  const out = {} as Record<BreakpointKey, GridItemLayout[]>;
  for (const bp of BREAKPOINT_KEYS) {
    const cols = config.cols[bp];
    const smallest = isOneColumn(bp, cols);
    const items: GridItemLayout[] = widgets.map((widget) => {
      const own = widget.responsiveLayouts?.[bp] ?? null;
      const p = own ?? widget.position;
      const h = Math.max(1, p.h);
      if (smallest) {
        // Compact controls (label inside) are a phone's only.
        const rows = bp === "xxs" && isCompactOnPhone(widget) ? controlRows(config, COMPACT_CONTROL_HEIGHT_PX) : controlRows(config);
        return { i: widget.id, x: 0, y: p.y, w: cols, h: !own && isControl(widget) ? Math.min(h, rows) : h, static: true };
      }
      if (own) {
        const w = Math.min(cols, Math.max(1, own.w));
        return { i: widget.id, x: Math.min(Math.max(0, own.x), cols - w), y: own.y, w, h, static: true };
      }
      return { i: widget.id, x: p.x, y: p.y, w: p.w, h, static: true };
    });
    if (!smallest) {
      const derived = new Set(widgets.filter((w) => !w.responsiveLayouts?.[bp]).map((w) => w.id));
      if (cols !== baseCols) scaleDerived(items, derived, cols, baseCols);
      settle(items, derived);
    }
    // One column: keep the desktop reading order (top to bottom, then left to right); two
    // compact controls in a row share it.
    if (smallest) {
      const order = [...widgets].sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x);
      let y = 0;
      let openHalf: GridItemLayout | null = null;
      const half = Math.max(1, Math.floor(cols / 2));
      const byId = new Map(items.map((item) => [item.i, item]));
      // Above phones, a desktop row of equal cards (KPIs) pairs up too.
      const cards = bp === "xxs" ? new Set<string>() : equalRowMembers(widgets, baseCols);
      out[bp] = order.map((widget) => {
        const own = widget.responsiveLayouts?.[bp];
        if (!own && cols >= 2 && (isHalfWidthOnPhone(widget) || cards.has(widget.id))) {
          if (openHalf) {
            const item = { ...byId.get(widget.id)!, x: half, y: openHalf.y, w: cols - half, h: openHalf.h };
            openHalf = null;
            return item;
          }
          const item = { ...byId.get(widget.id)!, x: 0, y, w: half };
          openHalf = item;
          y += item.h;
          return item;
        }
        openHalf = null;
        const item = { ...byId.get(widget.id)!, y };
        y += item.h;
        return item;
      });
    } else {
      out[bp] = items;
    }
  }
  return out;
}
