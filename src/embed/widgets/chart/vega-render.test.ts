// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { drawVegaLite } from "./vega-render";

const spec = {
  data: { values: [{ region: "North", revenue: 10 }, { region: "South", revenue: 20 }] },
  mark: "bar",
  encoding: { x: { field: "region", type: "nominal" }, y: { field: "revenue", type: "quantitative" } },
  autosize: { type: "fit", contains: "padding" },
};

describe("drawVegaLite", () => {
  it("yields to the event loop between compile, parse, view and run", async () => {
    const container = document.createElement("div");
    document.body.append(container);
    let yields = 0;
    const view = await drawVegaLite(container, spec, { renderer: "none", yieldToEventLoop: async () => void yields++ });
    expect(yields).toBe(3);
    expect(view).not.toBeNull();
    expect(view!.data("source_0").map((d: { revenue: number }) => d.revenue)).toEqual([10, 20]);
    expect(container.classList.contains("vega-embed")).toBe(true);
    expect(document.getElementById("vega-embed-style")).not.toBeNull();
    view!.finalize();
  });

  it("stops and returns null when aborted between steps", async () => {
    const container = document.createElement("div");
    const controller = new AbortController();
    let yields = 0;
    const view = await drawVegaLite(container, spec, {
      renderer: "none",
      signal: controller.signal,
      yieldToEventLoop: async () => {
        if (++yields === 2) controller.abort();
      },
    });
    expect(view).toBeNull();
    expect(yields).toBe(2);
  });

  it("rejects a spec vega-lite cannot compile", async () => {
    const container = document.createElement("div");
    await expect(drawVegaLite(container, { mark: "no-such-mark" }, { renderer: "none", yieldToEventLoop: async () => undefined })).rejects.toThrow();
  });
});
