import { describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../schema/dashboard";
import { buildGridLayouts, controlRows, resolveGridConfig } from "./grid-layouts";

const w = (id: string, x: number, y: number, width: number, h: number, extra: Partial<DashboardWidget> = {}): DashboardWidget => ({
  id,
  type: "CHART",
  position: { x, y, w: width, h },
  ...extra,
});

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

  it("keeps a row of four KPI cards together where the columns cannot hold them evenly: two and two, the rest moved down", () => {
    const kpis = ["k1", "k2", "k3", "k4"].map((id, i) => w(id, i * 3, 2, 3, 2));
    const below = [w("chart", 0, 4, 8, 6), w("side", 8, 4, 4, 6)];
    const md = buildGridLayouts([...kpis, ...below], config).md;
    const at = (id: string) => md.find((i) => i.i === id)!;
    expect(["k1", "k2", "k3", "k4"].map((id) => [at(id).x, at(id).y, at(id).w])).toEqual([
      [0, 2, 5],
      [5, 2, 5],
      [0, 4, 5],
      [5, 4, 5],
    ]);
    expect(at("chart").y).toBe(6);
    // Neighbours scaled by their edges never overlap: 8 + 4 of 12 → 7 + 3 of 10.
    expect([at("chart").x, at("chart").w, at("side").x, at("side").w]).toEqual([0, 7, 7, 3]);
    // Where the columns hold them evenly they stay in one row.
    const sm = buildGridLayouts([...kpis, ...below], resolveGridConfig({ cols: { lg: 12, md: 8 } })).md;
    expect(["k1", "k2", "k3", "k4"].map((id) => sm.find((i) => i.i === id)!.y)).toEqual([2, 2, 2, 2]);
  });

  it("moves what overlaps a widget's own layout for a breakpoint down below it, instead of the grid pushing it to the bottom", () => {
    // The demo's KPI cards: one row on desktop, two by two (their own layout) on a tablet.
    const kpis = [0, 1, 2, 3].map((i) =>
      w(`k${i}`, i * 3, 3, 3, 3, { responsiveLayouts: { sm: { x: (i % 2) * 3, y: 3 + Math.floor(i / 2) * 3, w: 3, h: 3 } } }),
    );
    const sm = buildGridLayouts([...kpis, w("trend", 0, 6, 8, 8), w("status", 8, 6, 4, 8), w("map", 0, 14, 12, 9)], config).sm;
    const at = (id: string) => sm.find((i) => i.i === id)!;
    expect([0, 1, 2, 3].map((i) => at(`k${i}`).y)).toEqual([3, 3, 6, 6]);
    expect([at("trend").y, at("status").y, at("map").y]).toEqual([9, 9, 17]);
    for (const a of sm) for (const b of sm) if (a !== b) expect(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h).toBe(false);
  });

  it("reads a breakpoint of two columns top to bottom, a row of equal cards two by two", () => {
    const kpis = [0, 1, 2, 3].map((i) => w(`k${i}`, i * 3, 3, 3, 3));
    const xs = buildGridLayouts([w("intro", 0, 0, 12, 3, { type: "TEXT" }), ...kpis, w("trend", 0, 6, 12, 8)], resolveGridConfig({ cols: { xs: 2 } })).xs;
    const at = (id: string) => xs.find((i) => i.i === id)!;
    expect([0, 1, 2, 3].map((i) => [at(`k${i}`).x, at(`k${i}`).y, at(`k${i}`).w])).toEqual([
      [0, 3, 1],
      [1, 3, 1],
      [0, 6, 1],
      [1, 6, 1],
    ]);
    expect([at("intro").w, at("trend").w, at("trend").y]).toEqual([2, 2, 9]);
  });

  it("stacks everything in one column at the smallest breakpoint in reading order", () => {
    const xxs = buildGridLayouts(widgets, config).xxs;
    expect(config.cols.xxs).toBe(2);
    expect(xxs.map((i) => [i.i, i.x, i.w, i.y])).toEqual([
      ["a", 0, 2, 0],
      ["b", 0, 2, 4],
      ["c", 0, 2, 8],
    ]);
  });

  it("gives controls only the rows their input needs in one column (compact ones one row), unless they have a layout for it", () => {
    const controls = [
      w("f", 0, 0, 3, 3, { type: "FILTER" }),
      w("g", 3, 0, 3, 3, { type: "TIME_GRAIN", responsiveLayouts: { xxs: { x: 0, y: 0, w: 1, h: 3 } } }),
      w("k", 0, 3, 12, 4),
    ];
    const xxs = buildGridLayouts(controls, config).xxs;
    expect(controlRows(config)).toBe(2);
    expect(xxs.map((i) => [i.i, i.y, i.h])).toEqual([
      ["f", 0, 1],
      ["g", 1, 3],
      ["k", 4, 4],
    ]);
    expect(buildGridLayouts(controls, config).lg.find((i) => i.i === "f")?.h).toBe(3);
  });

  it("pairs value pickers two to a row on phones; a date range and a grain switch take the full width", () => {
    const values = (id: string, x: number) => w(id, x, 0, 2, 3, { type: "FILTER", config: { member: "v.m", control: "values" } });
    const controls = [
      values("status", 4),
      values("country", 6),
      w("date", 8, 0, 2, 3, { type: "FILTER", config: { member: "v.d", control: "dateRange" } }),
      w("grain", 10, 0, 2, 3, { type: "TIME_GRAIN" }),
      values("lonely", 0),
      w("chart", 0, 3, 12, 4),
    ];
    controls[4]!.position = { x: 0, y: 2, w: 2, h: 1 };
    const xxs = buildGridLayouts(controls, config).xxs;
    // A value picker and a grain switch take one short row (compact), a date range the rows its label and inputs need.
    expect(xxs.find((i) => i.i === "date")!.h).toBe(2);
    expect(xxs.find((i) => i.i === "grain")!.h).toBe(1);
    expect(xxs.map((i) => [i.i, i.x, i.w, i.y])).toEqual([
      ["status", 0, 1, 0],
      ["country", 1, 1, 0],
      ["date", 0, 2, 1],
      ["grain", 0, 2, 3],
      ["lonely", 0, 1, 4],
      ["chart", 0, 2, 5],
    ]);
  });
});
