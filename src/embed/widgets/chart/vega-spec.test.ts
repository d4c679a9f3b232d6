import { describe, expect, it } from "vitest";
import { CategoryColorRegistry } from "./category-colors";
import { drilldownTarget, legendColumnsFor, LINE_HEADROOM, prepareVegaLiteSpec, safeFieldName, withTemporalAxisFormat, type VegaLiteSpec } from "./vega-spec";

const annotation = {
  measures: { "sales.revenue": { title: "Sales Revenue", shortTitle: "Revenue", type: "number" } },
  dimensions: { "sales.status": { title: "Status", type: "string" } },
  timeDimensions: { "sales.created_at.week": { title: "Created at", type: "time" } },
};

describe("prepareVegaLiteSpec", () => {
  it("renames dotted member fields in the data and in every spec reference", () => {
    const { spec } = prepareVegaLiteSpec(
      {
        mark: "bar",
        transform: [{ filter: "datum['sales.revenue'] > 0" }],
        encoding: {
          x: { field: "sales.status", type: "nominal" },
          y: { field: "sales\\.revenue", type: "quantitative" },
          tooltip: [{ field: "sales.revenue" }],
        },
      },
      [{ "sales.status": "completed", "sales.revenue": "12.5" }],
      { annotation },
    );
    expect(spec.data).toEqual({ values: [{ sales__status: "completed", sales__revenue: 12.5 }] });
    expect(spec.encoding).toMatchObject({
      x: { field: "sales__status", title: "Status" },
      y: { field: "sales__revenue", title: "Revenue" },
      tooltip: [{ field: "sales__revenue" }],
    });
    expect(spec.transform).toEqual([{ filter: 'datum["sales__revenue"] > 0' }]);
    expect(spec.width).toBe("container");
  });

  it("follows a time grain switch and drops the stale time unit", () => {
    const { spec } = prepareVegaLiteSpec(
      { mark: "line", encoding: { x: { field: "sales.created_at.month", type: "temporal", timeUnit: "yearmonth" } } },
      [{ "sales.created_at.week": "2024-01-01T00:00:00.000" }],
      { annotation, aliases: { "sales.created_at.month": "sales.created_at.week" } },
    );
    expect(spec.encoding).toEqual({ x: { field: "sales__created_at__week", type: "temporal", title: "Created at" } });
  });

  it("replaces any data of the spec and merges the theme config under its own", () => {
    const { spec } = prepareVegaLiteSpec({ data: { url: "https://example.com/x.json" }, mark: "bar", config: { bar: { color: "red" } } }, [], {
      config: { bar: { color: "blue" }, background: "transparent" },
    });
    expect(spec.data).toEqual({ values: [] });
    expect(spec.config).toEqual({ bar: { color: "red" }, background: "transparent" });
  });
});

describe("drilldownTarget", () => {
  it("maps a clicked datum back to the measure member and its value", () => {
    const { fields } = prepareVegaLiteSpec({ mark: "bar" }, [{ "sales.status": "x", "sales.revenue": 3 }]);
    expect(drilldownTarget({ sales__status: "x", sales__revenue: 3 }, fields, ["sales.revenue"])).toEqual({
      member: "sales.revenue",
      value: 3,
      row: { "sales.status": "x", "sales.revenue": 3 },
    });
    expect(safeFieldName("a.b.c")).toBe("a__b__c");
  });
});

describe("withTemporalAxisFormat", () => {
  it("labels a monthly time axis with the year and leaves explicit formats alone", () => {
    const spec = {
      mark: "line",
      encoding: { x: { field: "sales.created_at", type: "temporal" }, y: { field: "sales.revenue", type: "quantitative" } },
      layer: [{ mark: "point", encoding: { x: { field: "a", type: "temporal", axis: { format: "%Y" } } } }],
    } as unknown as VegaLiteSpec;
    const out = withTemporalAxisFormat(spec, "month") as unknown as {
      encoding: Record<string, { axis?: { format?: string } }>;
      layer: { encoding: Record<string, { axis?: { format?: string } }> }[];
    };
    expect(out.encoding.x!.axis?.format).toBe("%b %Y");
    expect(out.encoding.y!.axis).toBeUndefined();
    expect(out.layer[0]!.encoding.x!.axis?.format).toBe("%Y");
    expect(withTemporalAxisFormat(spec, "hour")).toBe(spec);
  });
});

describe("chart polish", () => {
  const palette = ["#p0", "#p1", "#p2", "#p3", "#p4", "#p5"];
  const donut: VegaLiteSpec = {
    mark: { type: "arc", innerRadius: 55 },
    encoding: { theta: { field: "sales.count", type: "quantitative" }, color: { field: "sales.status", type: "nominal" } },
  };
  const rows = (statuses: string[]) => statuses.map((s, i) => ({ "sales.status": s, "sales.count": 10 + i }));

  it("keeps a category's colour when a filter leaves it alone on the chart", () => {
    const registry = new CategoryColorRegistry();
    const options = { annotation, config: { range: { category: palette } }, categoryColors: registry };
    const all = prepareVegaLiteSpec(donut, rows(["shipped", "completed", "cancelled", "processing", "returned"]), options).spec;
    expect((all.encoding as { color: { scale: unknown } }).color.scale).toEqual({
      domain: ["cancelled", "completed", "processing", "returned", "shipped"],
      range: ["#p0", "#p1", "#p2", "#p3", "#p4"],
    });
    const filtered = prepareVegaLiteSpec(donut, rows(["completed"]), options).spec;
    expect((filtered.encoding as { color: { scale: unknown } }).color.scale).toEqual({ domain: ["completed"], range: ["#p1"] });
    const added = prepareVegaLiteSpec(donut, rows(["completed", "refunded"]), options).spec;
    expect((added.encoding as { color: { scale: unknown } }).color.scale).toEqual({ domain: ["completed", "refunded"], range: ["#p1", "#p5"] });
  });

  it("leaves headroom above a line or area's largest value, not above bars", () => {
    const line = prepareVegaLiteSpec(
      { mark: "line", encoding: { x: { field: "sales.created_at.week", type: "temporal" }, y: { field: "sales.revenue", type: "quantitative" } } },
      [
        { "sales.created_at.week": "2024-01-01", "sales.revenue": 100 },
        { "sales.created_at.week": "2025-01-01", "sales.revenue": 3_000_000 },
      ],
      { annotation },
    ).spec;
    expect((line.encoding as { y: { scale: { domainMax: number } } }).y.scale.domainMax).toBeCloseTo(3_000_000 * (1 + LINE_HEADROOM));
    const bar = prepareVegaLiteSpec({ mark: "bar", encoding: { y: { field: "sales.revenue", type: "quantitative" } } }, [{ "sales.revenue": 5 }], {
      annotation,
    }).spec;
    expect((bar.encoding as { y: { scale?: unknown } }).y.scale).toBeUndefined();
  });

  it("fits legend columns to the chart's width", () => {
    expect(legendColumnsFor(300)).toBe(2);
    expect(legendColumnsFor(560)).toBe(4);
    expect(legendColumnsFor(60)).toBe(1);
  });
});
