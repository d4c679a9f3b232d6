import { describe, expect, it } from "vitest";
import { needsLiveView } from "./vega-view";

describe("needsLiveView", () => {
  it("sends specs with interactive parameters to the page and every other spec to the chart worker", () => {
    expect(needsLiveView({ mark: "bar", encoding: {} })).toBe(false);
    expect(needsLiveView({ mark: "bar", params: [] })).toBe(false);
    expect(needsLiveView({ mark: "bar", params: [{ name: "pick", select: "point" }] })).toBe(true);
    expect(needsLiveView({ layer: [{ mark: "line" }, { mark: "point", params: [{ name: "hover", select: { type: "point", on: "pointerover" } }] }] })).toBe(
      true,
    );
    expect(needsLiveView({ hconcat: [{ mark: "bar" }, { vconcat: [{ mark: "bar", params: [{ name: "b", select: "interval" }] }] }] })).toBe(true);
    expect(needsLiveView({ facet: { row: { field: "x" } }, spec: { mark: "bar", params: [{ name: "p", select: "point" }] } })).toBe(true);
  });
});
