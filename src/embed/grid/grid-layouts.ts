/**
 * Grid layouts per breakpoint from the DashboardLayout and each widget's position /
 * responsiveLayouts. A breakpoint a widget has no layout for is derived from its desktop
 * position scaled to the column count; the smallest breakpoint is always one column so
 * phones read the dashboard top to bottom.
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
 * Widget layouts for every breakpoint, all static (viewers don't rearrange). In the one-column
 * layout a control without a layout of its own for it takes only the rows its input needs:
 * stacked one under another, desktop-sized control cells would be mostly empty space.
 */
export function buildGridLayouts(widgets: readonly DashboardWidget[], config: ResolvedGridConfig): Record<BreakpointKey, GridItemLayout[]> {
  const baseCols = config.cols.lg;
  const out = {} as Record<BreakpointKey, GridItemLayout[]>;
  for (const bp of BREAKPOINT_KEYS) {
    const cols = config.cols[bp];
    const smallest = bp === "xxs";
    const items: GridItemLayout[] = widgets.map((widget) => {
      const own = widget.responsiveLayouts?.[bp] ?? null;
      const p = own ?? widget.position;
      const h = Math.max(1, p.h);
      if (smallest) {
        const rows = isCompactOnPhone(widget) ? controlRows(config, COMPACT_CONTROL_HEIGHT_PX) : controlRows(config);
        return { i: widget.id, x: 0, y: p.y, w: cols, h: !own && isControl(widget) ? Math.min(h, rows) : h, static: true };
      }
      if (own) {
        const w = Math.min(cols, Math.max(1, own.w));
        return { i: widget.id, x: Math.min(Math.max(0, own.x), cols - w), y: own.y, w, h, static: true };
      }
      const scale = cols / baseCols;
      const w = Math.min(cols, Math.max(1, Math.round(p.w * scale)));
      const x = Math.min(Math.max(0, Math.round(p.x * scale)), cols - w);
      return { i: widget.id, x, y: p.y, w, h, static: true };
    });
    // One column: keep the desktop reading order (top to bottom, then left to right); two
    // compact controls in a row share it.
    if (smallest) {
      const order = [...widgets].sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x);
      let y = 0;
      let openHalf: GridItemLayout | null = null;
      const half = Math.max(1, Math.floor(cols / 2));
      const byId = new Map(items.map((item) => [item.i, item]));
      out[bp] = order.map((widget) => {
        const own = widget.responsiveLayouts?.[bp];
        if (!own && cols >= 2 && isHalfWidthOnPhone(widget)) {
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
