import { describe, expect, it } from "vitest";
import { fitSizeLegends, withLegendColumns } from "./draw-on-page";
import type { VegaLiteSpec } from "./vega-spec";

/** A point map's layers as map-spec.ts writes them: the world, then the points with a size legend of four in a row. */
const map = (): VegaLiteSpec => ({
  layer: [
    { mark: "geoshape" },
    { mark: "circle", encoding: { size: { field: "revenue", type: "quantitative", legend: { orient: "bottom", direction: "horizontal", columns: 4 } } } },
  ],
});
const columnsOf = (spec: VegaLiteSpec) => ((spec.layer as VegaLiteSpec[])[1]!.encoding as { size: { legend: { columns: number } } }).size.legend.columns;

describe("fitSizeLegends", () => {
  it("keeps a size legend's columns to what the width holds", () => {
    expect(columnsOf(fitSizeLegends(map(), 352))).toBe(4);
    // A 320 px phone: the card's chart is ~230 px wide, two sizes to a row.
    expect(columnsOf(fitSizeLegends(map(), 230))).toBe(2);
    expect(columnsOf(fitSizeLegends(map(), 60))).toBe(1);
  });

  it("is applied with the legend columns of every drawing, and leaves the input as it was", () => {
    const spec = map();
    expect(columnsOf(withLegendColumns(spec, 230))).toBe(2);
    expect(columnsOf(spec)).toBe(4);
  });

  it("leaves a spec without a size legend as it is", () => {
    const bars: VegaLiteSpec = { mark: "bar", encoding: { x: { field: "a" } } };
    expect(fitSizeLegends(bars, 100)).toBe(bars);
  });
});
