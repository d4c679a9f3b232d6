// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { placedLayout } from "./dashboard-grid";
import type { GridItemLayout } from "./grid-layouts";
import { CellGrowthProvider, grownLayout, rowsFor, useCellGrowth, useGrownCells } from "./grown-cells";

const item = (i: string, x: number, y: number, w: number, h: number): GridItemLayout => ({ i, x, y, w, h, static: true });

describe("cells grown to their content", () => {
  it("adds whole rows for the pixels needed, none for no need", () => {
    expect(rowsFor(1, 56)).toBe(1);
    expect(rowsFor(56, 56)).toBe(1);
    expect(rowsFor(57, 56)).toBe(2);
    expect(rowsFor(0, 56)).toBe(0);
    expect(rowsFor(-30, 56)).toBe(0);
  });

  it("moves the cells below a grown cell down, and leaves its neighbours and the cells beside them", () => {
    // A chart (x 0-7) beside the AI answer (x 8-11); under each, another card.
    const layout = [item("chart", 0, 0, 8, 5), item("ai", 8, 0, 4, 5), item("table", 0, 5, 8, 4), item("kpis", 8, 5, 4, 3)];
    const placed = placedLayout(grownLayout(layout, new Map([["ai", 3]])), 12);
    const at = (id: string) => placed.find((p) => p.i === id)!;
    expect(at("ai")).toMatchObject({ y: 0, h: 8 });
    expect(at("kpis")).toMatchObject({ y: 8, h: 3 });
    expect(at("chart")).toMatchObject({ y: 0, h: 5 });
    expect(at("table")).toMatchObject({ y: 5, h: 4 });
    // No growth: the author's layout as it is.
    expect(grownLayout(layout, new Map())).toBe(layout);
  });

  it("takes a widget's need, gives it back as what the cell was given, and shrinks back to the author's height", () => {
    const { result } = renderHook(() => ({ grid: useGrownCells(56) }));
    const wrapper = ({ children }: { children: ReactNode }) => <CellGrowthProvider value={result.current.grid}>{children}</CellGrowthProvider>;
    const widget = renderHook(() => useCellGrowth("ai"), { wrapper });
    expect(widget.result.current).toEqual({ addedPx: 0, need: expect.any(Function) });
    act(() => widget.result.current!.need(120.4));
    widget.rerender();
    expect(result.current.grid.rows.get("ai")).toBe(3);
    expect(widget.result.current!.addedPx).toBe(121);
    act(() => widget.result.current!.need(-10));
    widget.rerender();
    expect(result.current.grid.rows.size).toBe(0);
    expect(widget.result.current!.addedPx).toBe(0);
  });

  it("gives no growth where no grid grows cells (a tab's grid): the answer scrolls there", () => {
    expect(renderHook(() => useCellGrowth("ai")).result.current).toBeNull();
  });
});
