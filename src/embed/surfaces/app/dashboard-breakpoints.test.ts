import { describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../../schema/dashboard";
import { resolveGridConfig } from "../../grid/grid-layouts";
import { adoptDerivedLayout, breakpointAt, dropOwnLayout, hasOwnLayout, previewWidth, withLayout } from "./dashboard-breakpoints";

const grid = resolveGridConfig(undefined);
const widgets: DashboardWidget[] = [
  { id: "a", type: "TEXT", position: { x: 0, y: 0, w: 6, h: 2 } },
  { id: "b", type: "TEXT", position: { x: 6, y: 0, w: 6, h: 2 } },
];

describe("breakpoints in the editor", () => {
  it("gives each previewed breakpoint a width that shows it", () => {
    for (const bp of ["lg", "md", "sm"] as const) expect(breakpointAt(grid, previewWidth(grid, bp))).toBe(bp);
    expect(previewWidth(grid, "md")).toBe(997);
    expect(breakpointAt(grid, 996)).toBe("sm");
  });

  it("writes a move to the positions on desktop and to the breakpoint's own layout below it", () => {
    const moved = [
      { i: "a", x: 0, y: 2, w: 6, h: 2 },
      { i: "b", x: 6, y: 0, w: 6, h: 2 },
    ];
    expect(withLayout(widgets, moved, "lg")![0]!.position).toEqual({ x: 0, y: 2, w: 6, h: 2 });
    const md = withLayout(widgets, moved, "md")!;
    expect(md[0]!.position).toEqual(widgets[0]!.position);
    expect(md[0]!.responsiveLayouts?.md).toEqual({ x: 0, y: 2, w: 6, h: 2 });
    expect(md[1]!.responsiveLayouts?.md).toEqual({ x: 6, y: 0, w: 6, h: 2 });
    expect(withLayout(widgets, [{ i: "a", x: 0, y: 0, w: 6, h: 2 }], "lg")).toBeNull();
  });

  it("has a desktop layout always and another breakpoint's once a widget has one", () => {
    expect(hasOwnLayout(widgets, "lg")).toBe(true);
    expect(hasOwnLayout(widgets, "sm")).toBe(false);
    expect(hasOwnLayout([{ ...widgets[0]!, responsiveLayouts: { sm: { x: 0, y: 0, w: 6, h: 2 } } }], "sm")).toBe(true);
  });

  it("adopts the layout shown at a breakpoint as its own, and drops it again", () => {
    const own = adoptDerivedLayout(widgets, grid, "sm");
    // Six columns on a tablet: the two halves of the desktop row scale to three columns each.
    expect(own.map((w) => w.responsiveLayouts?.sm)).toEqual([
      { x: 0, y: 0, w: 3, h: 2 },
      { x: 3, y: 0, w: 3, h: 2 },
    ]);
    expect(own.map((w) => w.position)).toEqual(widgets.map((w) => w.position));
    const withMd = own.map((w) => ({ ...w, responsiveLayouts: { ...w.responsiveLayouts, md: { x: 0, y: 0, w: 5, h: 2 } } }));
    const dropped = dropOwnLayout(withMd, "sm");
    expect(dropped.map((w) => w.responsiveLayouts)).toEqual([{ md: { x: 0, y: 0, w: 5, h: 2 } }, { md: { x: 0, y: 0, w: 5, h: 2 } }]);
    expect(dropOwnLayout(own, "sm")).toEqual(widgets);
  });
});
