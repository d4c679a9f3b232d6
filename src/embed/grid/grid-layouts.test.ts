import { describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../schema/dashboard";
import { createRenderScheduler } from "../widgets/chart/render-scheduler";
import { buildGridLayouts, controlRows, resolveGridConfig } from "./grid-layouts";
import { createLoadTracker, visibleWidgetIds } from "../surfaces/dashboard/load-tracker";

const w = (id: string, x: number, y: number, width: number, h: number, extra: Partial<DashboardWidget> = {}): DashboardWidget => ({ id, type: "CHART", position: { x, y, w: width, h }, ...extra });

describe("buildGridLayouts", () => {
  const widgets = [w("b", 6, 0, 6, 4), w("a", 0, 0, 6, 4), w("c", 0, 4, 12, 3, { responsiveLayouts: { sm: { x: 0, y: 4, w: 3, h: 5 } } })];
  const config = resolveGridConfig({ cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 1 }, rowHeight: 40, margin: [12] });

  it("uses the configured row height, margin and columns", () => {
    expect(config.rowHeight).toBe(40);
    expect(config.margin).toEqual([12, 12]);
    expect(config.cols.sm).toBe(6);
  });

  it("keeps desktop positions, scales them for smaller breakpoints and honours responsiveLayouts", () => {
    const layouts = buildGridLayouts(widgets, config);
    expect(layouts.lg.find((i) => i.i === "b")).toMatchObject({ x: 6, w: 6, static: true });
    expect(layouts.md.find((i) => i.i === "b")).toMatchObject({ x: 5, w: 5 });
    expect(layouts.sm.find((i) => i.i === "c")).toMatchObject({ x: 0, w: 3, h: 5 });
  });

  it("stacks everything in one column at the smallest breakpoint in reading order", () => {
    const xxs = buildGridLayouts(widgets, config).xxs;
    expect(xxs.map((i) => [i.i, i.x, i.w, i.y])).toEqual([
      ["a", 0, 1, 0],
      ["b", 0, 1, 4],
      ["c", 0, 1, 8],
    ]);
  });

  it("gives controls only the rows their input needs in one column, unless they have a layout for it", () => {
    const controls = [
      w("f", 0, 0, 3, 3, { type: "FILTER" }),
      w("g", 3, 0, 3, 3, { type: "TIME_GRAIN", responsiveLayouts: { xxs: { x: 0, y: 0, w: 1, h: 3 } } }),
      w("k", 0, 3, 12, 4),
    ];
    const xxs = buildGridLayouts(controls, config).xxs;
    expect(controlRows(config)).toBe(2);
    expect(xxs.map((i) => [i.i, i.y, i.h])).toEqual([
      ["f", 0, 2],
      ["g", 2, 3],
      ["k", 5, 4],
    ]);
    expect(buildGridLayouts(controls, config).lg.find((i) => i.i === "f")?.h).toBe(3);
  });
});

describe("load tracker", () => {
  it("counts top-level widgets and the first tab's widgets as visible", () => {
    const tabs: DashboardWidget = { id: "t", type: "TABS_CONTAINER", position: { x: 0, y: 0, w: 12, h: 6 }, config: { tabs: [{ id: "one", title: "One", widgets: [w("x", 0, 0, 6, 3)] }, { id: "two", title: "Two", widgets: [w("y", 0, 0, 6, 3)] }] } };
    expect(visibleWidgetIds([w("a", 0, 0, 6, 3), tabs])).toEqual(["a", "x"]);
  });

  it("fires once when every visible widget rendered or failed", () => {
    const calls: unknown[] = [];
    const tracker = createLoadTracker(["a", "b"], (s) => calls.push(s));
    tracker.settle("a", "ready");
    tracker.settle("a", "error");
    expect(calls).toEqual([]);
    tracker.settle("b", "error");
    tracker.settle("b", "ready");
    expect(calls).toEqual([{ widgetCount: 2, failed: 1 }]);
  });

  it("fires for a dashboard without widgets", async () => {
    const calls: unknown[] = [];
    createLoadTracker([], (s) => calls.push(s));
    await Promise.resolve();
    expect(calls).toEqual([{ widgetCount: 0, failed: 0 }]);
  });
});

describe("render scheduler", () => {
  it("runs renders one at a time with a yield between them and skips cancelled ones", async () => {
    const log: string[] = [];
    const scheduler = createRenderScheduler(async () => {
      log.push("yield");
    });
    const cancelled = new AbortController();
    cancelled.abort();
    await Promise.all([
      scheduler.schedule(() => void log.push("a")),
      scheduler.schedule(() => void log.push("never"), cancelled.signal),
      scheduler.schedule(async () => {
        await Promise.resolve();
        log.push("b");
      }),
    ]);
    expect(log).toEqual(["a", "yield", "b", "yield"]);
  });
});
