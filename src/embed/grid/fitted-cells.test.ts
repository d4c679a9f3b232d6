import { describe, expect, it } from "vitest";
import { flowCells, flowsByRows, isFittedInOneColumn } from "./fitted-cells";
import type { GridItemLayout } from "./grid-layouts";

const item = (i: string, x: number, y: number, w: number, h: number): GridItemLayout => ({ i, x, y, w, h, static: true });
const grid = { rowHeight: 40, marginY: 16, paddingY: 0 };

describe("the one-column layout's flow", () => {
  // A phone's derived layout: a text, two pickers side by side, a date range, a chart.
  const placed = [item("intro", 0, 0, 2, 3), item("status", 0, 3, 1, 1), item("country", 1, 3, 1, 1), item("date", 0, 4, 2, 2), item("chart", 0, 6, 2, 7)];

  it("places cells by their grid rows while nothing is measured", () => {
    const { boxes, height } = flowCells(placed, grid, new Map());
    expect(boxes.get("intro")).toEqual({ top: 0, height: 152 });
    expect(boxes.get("status")).toEqual({ top: 168, height: 40 });
    expect(boxes.get("country")).toEqual({ top: 168, height: 40 });
    expect(boxes.get("date")).toEqual({ top: 224, height: 96 });
    expect(boxes.get("chart")).toEqual({ top: 336, height: 376 });
    expect(height).toBe(712);
  });

  it("gives measured cells their content's height, and moves what follows up by what they saved", () => {
    const measured = new Map([
      ["intro", 113],
      ["status", 34],
      ["country", 36],
      ["date", 57],
    ]);
    const { boxes, height } = flowCells(placed, grid, measured);
    expect(boxes.get("intro")).toEqual({ top: 0, height: 113 });
    // A row is as tall as its tallest cell; each keeps its own height.
    expect(boxes.get("status")).toEqual({ top: 129, height: 34 });
    expect(boxes.get("country")).toEqual({ top: 129, height: 36 });
    expect(boxes.get("date")).toEqual({ top: 181, height: 57 });
    // The chart keeps its rows, a margin below the date range.
    expect(boxes.get("chart")).toEqual({ top: 254, height: 376 });
    expect(height).toBe(630);
  });

  it("keeps the container's padding above and below", () => {
    const { boxes, height } = flowCells([item("a", 0, 0, 2, 1)], { ...grid, paddingY: 10 }, new Map([["a", 30]]));
    expect(boxes.get("a")).toEqual({ top: 10, height: 30 });
    expect(height).toBe(50);
    expect(flowCells([], grid, new Map()).height).toBe(0);
  });

  it("flows only rows whose cells start and end together (an author's own arrangement stays as placed)", () => {
    expect(flowsByRows(placed)).toBe(true);
    // Side by side, of different heights: a row that is not one.
    expect(flowsByRows([item("a", 0, 0, 1, 3), item("b", 1, 0, 1, 1), item("c", 1, 1, 1, 2)])).toBe(false);
    expect(flowsByRows([item("a", 0, 0, 2, 3), item("b", 0, 2, 2, 1)])).toBe(false);
  });

  it("fits text, AI answers and controls, not charts", () => {
    const widget = (type: string) => ({ id: "w", type, position: { x: 0, y: 0, w: 1, h: 1 } }) as unknown as Parameters<typeof isFittedInOneColumn>[0];
    expect(["TEXT", "FILTER", "TIME_GRAIN", "CHART", "AI", "TABS_CONTAINER"].map((t) => isFittedInOneColumn(widget(t)))).toEqual([
      true,
      true,
      true,
      false,
      true,
      false,
    ]);
  });
});
