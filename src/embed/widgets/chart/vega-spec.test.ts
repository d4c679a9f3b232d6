import { describe, expect, it } from "vitest";
import { calculationsResult, compareResult } from "../../export/result-fixtures";
import { CategoryColorRegistry } from "./category-colors";
import {
  drilldownTarget,
  legendColumnsFor,
  legendEntriesOf,
  legendLabelLimitFor,
  numberFormatOf,
  LINE_HEADROOM,
  prepareVegaLiteSpec,
  safeFieldName,
  withTemporalAxisFormat,
  withTemporalTicks,
  fitTemporalTicks,
  type VegaLiteSpec,
} from "./vega-spec";

const annotation = {
  measures: { "sales.revenue": { title: "Sales Revenue", shortTitle: "Revenue", type: "number" } },
  dimensions: { "sales.status": { title: "Status", shortTitle: "Status", type: "string" } },
  timeDimensions: { "sales.created_at.week": { title: "Created at", shortTitle: "Created at", type: "time" } },
};

describe("prepareVegaLiteSpec on compare and calculations results", () => {
  it.each([
    ["compare", compareResult, "sales.revenue.relativeChange", "Revenue (% change)", "+.1~%", "+.1~%"],
    ["compare", compareResult, "sales.revenue.change", "Revenue (change)", "+$,~f", "+$,.2f"],
    ["compare", compareResult, "sales.revenue.current", "Revenue (Q1 2025)", "$,~f", "$,.2f"],
    ["calculations", calculationsResult, "sales.revenue.percentOfTotal", "Revenue (% of total)", ".1~%", ".1~%"],
    ["calculations", calculationsResult, "sales.returned_share", "Returned share", ".1~%", ".1~%"],
    ["calculations", calculationsResult, "sales.revenue.runningTotal", "Revenue (running total)", "$,~f", "$,.2f"],
  ])("titles and formats a %s column %s on the axis (ticks without cents) and in the tooltip", (_kind, result, column, title, axisFormat, format) => {
    const { spec } = prepareVegaLiteSpec(
      {
        mark: "bar",
        encoding: {
          x: { field: "sales.products_category", type: "nominal" },
          y: { field: column, type: "quantitative" },
          tooltip: [{ field: "sales.products_category" }, { field: column, type: "quantitative" }],
        },
      },
      result.data,
      { annotation: result.annotation },
    );
    const safe = safeFieldName(column);
    expect(spec.encoding).toEqual({
      x: { field: "sales__products_category", type: "nominal", title: "Products Category" },
      y: { field: safe, type: "quantitative", title, axis: { format: axisFormat } },
      tooltip: [
        { field: "sales__products_category", title: "Products Category" },
        { field: safe, type: "quantitative", title, format },
      ],
    });
  });

  it("keeps a rank's default format and the spec's own formats and titles", () => {
    const { spec } = prepareVegaLiteSpec(
      {
        mark: "bar",
        encoding: {
          x: { field: "sales.revenue.rank", type: "quantitative" },
          y: { field: "sales.revenue.percentOfTotal", type: "quantitative", title: "Share", axis: { format: ".0%", grid: false } },
          color: { field: "sales.revenue.percentOfTotal", type: "quantitative", legend: null },
        },
      },
      calculationsResult.data,
      { annotation: calculationsResult.annotation },
    );
    expect(spec.encoding).toEqual({
      x: { field: "sales__revenue__rank", type: "quantitative", title: "Revenue (rank)" },
      y: { field: "sales__revenue__percentOfTotal", type: "quantitative", title: "Share", axis: { format: ".0%", grid: false } },
      color: { field: "sales__revenue__percentOfTotal", type: "quantitative", title: "Revenue (% of total)", legend: null },
    });
  });

  it("reads numeric text of compare and calculation columns as numbers", () => {
    const rows = [{ "sales.products_category": "Books", "sales.revenue.change": "250.5", "sales.revenue.rank": "1" }];
    const { spec } = prepareVegaLiteSpec({ mark: "bar" }, rows, {
      annotation: { ...compareResult.annotation, calculations: calculationsResult.annotation.calculations },
    });
    expect(spec.data).toEqual({ values: [{ sales__products_category: "Books", sales__revenue__change: 250.5, sales__revenue__rank: 1 }] });
  });

  it("has no format of its own for plain numbers, parts of time and text", () => {
    const base = { key: "k", title: "K", shortTitle: "K", role: "measure" as const, signed: false };
    expect(numberFormatOf({ ...base, type: "number" })).toBeNull();
    expect(numberFormatOf({ ...base, type: "number", signed: true })).toBe("+,.2~f");
    expect(numberFormatOf({ ...base, type: "number", format: "percent", timePart: "dayOfWeek" })).toBeNull();
    expect(numberFormatOf({ ...base, type: "string", format: "percent" })).toBeNull();
    expect(numberFormatOf(undefined)).toBeNull();
  });
});

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

describe("withTemporalTicks and fitTemporalTicks", () => {
  const line = {
    mark: "line",
    encoding: { x: { field: "sales\\.created_at", type: "temporal" }, y: { field: "sales\\.revenue", type: "quantitative" } },
  } as unknown as VegaLiteSpec;
  const months = (from: string, n: number) =>
    Array.from({ length: n }, (_, i) => {
      const d = new Date(`${from}T00:00:00Z`);
      d.setUTCMonth(d.getUTCMonth() + i);
      return { "sales.created_at.month": d.toISOString().slice(0, 23), "sales.revenue": i };
    });
  const ticks = (spec: VegaLiteSpec) =>
    (spec as unknown as { encoding: { x: { axis?: { values?: { year: number; month: number }[] } } } }).encoding.x.axis?.values;

  it("puts a tick on every bucket of the result, at its grain, the last one included", () => {
    const values = ticks(withTemporalTicks(line, months("2025-01-01", 6), "month"));
    expect(values).toHaveLength(6);
    expect(values!.at(-1)).toEqual({ year: 2025, month: 6, date: 1 });
  });

  it("keeps as many as the width holds, every n-th counted back from the last", () => {
    const all = withTemporalTicks(line, months("2023-07-01", 24), "month");
    const fitted = ticks(fitTemporalTicks(all, 450))!;
    expect(fitted.length).toBeLessThanOrEqual(Math.floor((450 - 64) / 84));
    expect(fitted.at(-1)).toEqual({ year: 2025, month: 6, date: 1 });
    const gaps = fitted.slice(1).map((v, i) => v.year * 12 + v.month - (fitted[i]!.year * 12 + fitted[i]!.month));
    expect(new Set(gaps).size).toBe(1);
    expect(ticks(fitTemporalTicks(all, 2400))).toHaveLength(24);
    expect(ticks(fitTemporalTicks(all, 300))!.at(-1)).toEqual({ year: 2025, month: 6, date: 1 });
  });

  it("leaves ticks a spec sets, other granularities and a single bucket alone; keeps them through prepareVegaLiteSpec", () => {
    const own = {
      mark: "line",
      encoding: { x: { field: "sales\\.created_at", type: "temporal", axis: { tickCount: 4 } }, y: { field: "sales\\.revenue", type: "quantitative" } },
    } as unknown as VegaLiteSpec;
    expect(withTemporalTicks(own, months("2025-01-01", 6), "month")).toEqual(own);
    expect(withTemporalTicks(line, months("2025-01-01", 6), "hour")).toBe(line);
    expect(ticks(withTemporalTicks(line, months("2025-01-01", 1), "month"))).toBeUndefined();
    const rows = months("2025-01-01", 3);
    const prepared = prepareVegaLiteSpec(withTemporalTicks(line, rows, "month"), rows);
    expect(JSON.stringify(prepared.spec)).toContain('"values":[{"year":2025,"month":1,"date":1}');
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

  it.each([
    [340, null, 126],
    [340, 2, 126],
    [1100, null, 142],
    [730, 2, 160],
    [730, 6, 80],
    [2000, null, 160],
    [60, null, 40],
  ])("keeps the legend labels of a chart %i px wide with %s entries inside it", (width, entries, limit) => {
    expect(legendLabelLimitFor(width, entries)).toBe(limit);
    const columns = Math.min(legendColumnsFor(width), entries ?? Infinity);
    expect(columns * (legendLabelLimitFor(width, entries) + 30)).toBeLessThanOrEqual(Math.max(width, 70));
  });

  it("counts a legend's entries from a colour domain or a fold, else leaves it to the data", () => {
    expect(legendEntriesOf({ mark: "bar", encoding: { color: { field: "c", type: "nominal", scale: { domain: ["a", "b", "c"] } } } })).toBe(3);
    expect(legendEntriesOf({ transform: [{ fold: ["x", "y"], as: ["key", "value"] }], mark: "bar", encoding: { color: { field: "key" } } })).toBe(2);
    expect(legendEntriesOf({ mark: "bar", encoding: { color: { field: "c", type: "nominal" } } })).toBeNull();
  });
});
