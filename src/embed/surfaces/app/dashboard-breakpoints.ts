/**
 * The editor's layouts per breakpoint: which breakpoint a canvas width shows, the width the
 * responsive preview gives the canvas for a breakpoint, whether the draft has a layout of its own
 * there, and the edits that write a breakpoint's layout (a move or resize, adopting the derived
 * layout to arrange it, going back to the derived one).
 */
import { getBreakpointFromWidth } from "react-grid-layout/core";
import type { BreakpointKey, DashboardWidget } from "../../../schema/dashboard";
import { placedLayout } from "../../grid/dashboard-grid";
import { buildGridLayouts, type ResolvedGridConfig } from "../../grid/grid-layouts";

/** The sizes the preview switch offers; `auto` follows the editor's own width. */
export const PREVIEW_SIZES = ["auto", "lg", "md", "sm"] as const;
export type PreviewSize = (typeof PREVIEW_SIZES)[number];

type Cell = { i: string; x: number; y: number; w: number; h: number };

export function breakpointAt(config: ResolvedGridConfig, width: number): BreakpointKey {
  return getBreakpointFromWidth(config.breakpoints, width) as BreakpointKey;
}

/** The narrowest canvas that shows `bp` (react-grid-layout takes a breakpoint above its width). */
export function previewWidth(config: ResolvedGridConfig, bp: BreakpointKey): number {
  return config.breakpoints[bp] + 1;
}

/** The desktop layout is the widgets' positions; another breakpoint has its own once a widget has one. */
export function hasOwnLayout(widgets: readonly DashboardWidget[], bp: BreakpointKey): boolean {
  return bp === "lg" || widgets.some((w) => w.responsiveLayouts?.[bp]);
}

/** The widgets with a grid's layout written for `bp` (positions on desktop), or null when nothing moved. */
export function withLayout(widgets: readonly DashboardWidget[], layout: readonly Cell[], bp: BreakpointKey): DashboardWidget[] | null {
  const byId = new Map(layout.map((l) => [l.i, l]));
  let changed = false;
  const next = widgets.map((w) => {
    const l = byId.get(w.id);
    if (!l) return w;
    const pos = { x: l.x, y: l.y, w: l.w, h: l.h };
    const old = bp === "lg" ? w.position : w.responsiveLayouts?.[bp];
    if (old && old.x === pos.x && old.y === pos.y && old.w === pos.w && old.h === pos.h) return w;
    changed = true;
    return bp === "lg" ? { ...w, position: pos } : { ...w, responsiveLayouts: { ...(w.responsiveLayouts ?? {}), [bp]: pos } };
  });
  return changed ? next : null;
}

/** The layout shown at `bp` now (derived where a widget has none of its own), written as `bp`'s own. */
export function adoptDerivedLayout(widgets: readonly DashboardWidget[], config: ResolvedGridConfig, bp: BreakpointKey): DashboardWidget[] {
  const shown = placedLayout(buildGridLayouts(widgets, config)[bp], config.cols[bp]);
  const byId = new Map(shown.map((l) => [l.i, l]));
  return widgets.map((w) => {
    const l = byId.get(w.id);
    return l ? { ...w, responsiveLayouts: { ...(w.responsiveLayouts ?? {}), [bp]: { x: l.x, y: l.y, w: l.w, h: l.h } } } : w;
  });
}

/** The widgets without a layout of their own at `bp`: it is derived from the desktop one again. */
export function dropOwnLayout(widgets: readonly DashboardWidget[], bp: BreakpointKey): DashboardWidget[] {
  return widgets.map((w) => {
    if (!w.responsiveLayouts?.[bp]) return w;
    const rest = Object.fromEntries(Object.entries(w.responsiveLayouts).filter(([key]) => key !== bp));
    const { responsiveLayouts: _dropped, ...widget } = w;
    return Object.keys(rest).length ? { ...widget, responsiveLayouts: rest } : widget;
  });
}
