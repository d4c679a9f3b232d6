import { describe, expect, it } from "vitest";
import { parse, View } from "vega";
import { compile } from "vega-lite";
import type { QueryAnnotation } from "../../shell/platform-api";
import { exportColumnsOf } from "../../export/export-columns";
import { buildCsv } from "../../export/csv";
import { formatCell } from "../query/format-cell";
import { tableColumnsOf } from "./table-model";
import { prepareVegaLiteSpec, valueLabelExpr, type VegaLiteSpec } from "./vega-spec";

const labels = { completed: "abgeschlossen", shipped: "<b>versandt</b>", '"]; alert(1); ["': "Zitat" };
const annotation: QueryAnnotation = {
  measures: { "sales.count": { title: "Sales Bestellungen", shortTitle: "Bestellungen", type: "number" } },
  dimensions: { "sales.status": { title: "Sales Status", shortTitle: "Status", type: "string", valueLabels: labels } },
  timeDimensions: {},
};
const rows = [
  { "sales.status": "completed", "sales.count": 7 },
  { "sales.status": "shipped", "sales.count": 3 },
  { "sales.status": '"]; alert(1); ["', "sales.count": 1 },
  { "sales.status": "cancelled", "sales.count": 1 },
];

/** The text of every label vega draws on the x axis of a prepared spec. */
async function xLabels(spec: VegaLiteSpec): Promise<string[]> {
  const view = new View(parse(compile(spec as never).spec), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  const axis = svg.slice(svg.indexOf('aria-label="X-axis'));
  return [...axis.slice(0, axis.indexOf("</g></g></g>")).matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
}

describe("value labels", () => {
  it("draw a dimension's labels on the axis while the data keeps raw values", async () => {
    const prepared = prepareVegaLiteSpec(
      { mark: "bar", encoding: { x: { field: "sales.status", type: "nominal" }, y: { field: "sales.count", type: "quantitative" } } } as VegaLiteSpec,
      rows,
      { annotation },
    );
    const { autosize: _autosize, ...fixed } = prepared.spec;
    const drawn = await xLabels({ ...fixed, width: 400, height: 200 });
    expect(drawn).toEqual(expect.arrayContaining(["abgeschlossen", "&lt;b&gt;versandt&lt;/b&gt;", "Zitat", "cancelled"]));
    expect(JSON.stringify((prepared.spec.data as { values: unknown }).values)).toContain('"completed"');
  });

  it("show a labelled dimension's label in tooltips, beside its raw value", async () => {
    const prepared = prepareVegaLiteSpec(
      {
        mark: "bar",
        encoding: {
          x: { field: "sales.status", type: "nominal" },
          y: { field: "sales.count", type: "quantitative" },
          tooltip: [
            { field: "sales.status", type: "nominal" },
            { field: "sales.count", type: "quantitative" },
          ],
        },
      } as VegaLiteSpec,
      rows,
      { annotation },
    );
    const { autosize: _autosize, ...fixed } = prepared.spec;
    const view = new View(parse(compile({ ...fixed, width: 400, height: 200 } as never).spec), { renderer: "none" });
    await view.runAsync();
    // vega's scenegraph is typed loosely; the marks' items carry the tooltip vega would show.
    type Group = { marktype?: string; items?: { tooltip?: Record<string, unknown> }[] };
    const scene = view.scenegraph() as unknown as { root: { items: { items: Group[] }[] } };
    const marks = scene.root.items[0]!.items.find((g) => g.marktype === "rect");
    const tooltips = (marks?.items ?? []).map((i) => i.tooltip);
    view.finalize();
    expect(tooltips).toContainEqual({ Status: "abgeschlossen", Bestellungen: "7" });
    expect(tooltips).toContainEqual({ Status: "cancelled", Bestellungen: "1" });
  });

  it("write labels as JSON strings in the label expression", () => {
    expect(valueLabelExpr({ a: 'x"y' })).toBe('indexof(["a"], datum.value) < 0 ? datum.label : ["x\\"y"][indexof(["a"], datum.value)]');
    expect(valueLabelExpr({})).toBeNull();
  });

  it("show labels in table cells and downloads, raw values where there is none", () => {
    const columns = tableColumnsOf(rows, annotation, { measures: ["sales.count"], dimensions: ["sales.status"] }, null);
    const status = columns.find((c) => c.key === "sales.status")!;
    const ctx = { locale: "de-DE" as const, timezone: "UTC" };
    expect(rows.map((r) => formatCell(r["sales.status"], status, ctx))).toEqual(["abgeschlossen", "<b>versandt</b>", "Zitat", "cancelled"]);
    const csv = buildCsv(exportColumnsOf(rows, annotation, { measures: ["sales.count"], dimensions: ["sales.status"] }), rows);
    expect(csv.split(/\r?\n/).slice(0, 3)).toEqual(["Status,Bestellungen", "abgeschlossen,7", "<b>versandt</b>,3"]);
  });
});
