import { describe, expect, it } from "vitest";
import { chartSpec, type ToolState } from "./tools";

const columns = [
  { key: "sales.customers_country", title: "Country", type: "string" },
  { key: "sales.revenue", title: "Revenue", type: "number", format: "currency" },
  { key: "sales.revenue_prev_month", title: "Revenue (1 month earlier)", type: "number", format: "currency" },
  { key: "sales.created_at.month", title: "Order Date", type: "time" },
];
const rows = [
  { "sales.customers_country": "GB", "sales.revenue": 25, "sales.revenue_prev_month": 12 },
  { "sales.customers_country": "MX", "sales.revenue": 19, "sales.revenue_prev_month": 11 },
];

describe("chartSpec with several measures", () => {
  it("draws bars side by side under the measures' titles, in the rows' order, never stacked", () => {
    const spec = chartSpec({ type: "bar", x: "sales.customers_country", y: ["sales.revenue", "sales.revenue_prev_month"] }, columns, rows) as {
      transform: Record<string, unknown>[];
      encoding: Record<string, Record<string, unknown>>;
    };
    expect(spec.transform).toEqual([
      { calculate: 'datum["sales.revenue"]', as: "y0" },
      { calculate: 'datum["sales.revenue_prev_month"]', as: "y1" },
      { fold: ["y0", "y1"], as: ["key", "value"] },
      { calculate: 'datum.key === "y0" ? "Revenue" : datum.key === "y1" ? "Revenue (1 month earlier)" : datum.key', as: "series" },
    ]);
    expect(spec.encoding.x).toMatchObject({ field: "sales\\.customers_country", sort: null, title: "Country" });
    expect(spec.encoding.y).toMatchObject({ field: "value", stack: null, title: null });
    expect(spec.encoding.color).toMatchObject({ field: "series", title: null, sort: ["Revenue", "Revenue (1 month earlier)"] });
    expect(spec.encoding.xOffset).toMatchObject({ field: "series" });
  });

  it("draws one line per measure over time, with points", () => {
    const spec = chartSpec({ type: "line", x: "sales.created_at.month", y: ["sales.revenue", "sales.revenue_prev_month"] }, columns, rows) as {
      mark: Record<string, unknown>;
      encoding: Record<string, Record<string, unknown> | undefined>;
    };
    expect(spec.mark).toMatchObject({ type: "line", point: true });
    expect(spec.encoding.x).toMatchObject({ type: "temporal" });
    expect(spec.encoding.x).not.toHaveProperty("sort");
    expect(spec.encoding.xOffset).toBeUndefined();
  });
});

describe("chartSpec's measure axes", () => {
  const encoding = (spec: Record<string, unknown>) => spec.encoding as Record<string, Record<string, unknown>>;
  it("label money with its currency sign and no cents, and shares as percentages", () => {
    expect(encoding(chartSpec({ type: "bar", x: "sales.customers_country", y: ["sales.revenue"] }, columns, rows)).y).toMatchObject({
      axis: { format: "$,~f" },
    });
    const share = [...columns, { key: "sales.completion_rate", title: "Completion Rate", type: "number", format: "percent" }];
    expect(encoding(chartSpec({ type: "line", x: "sales.created_at.month", y: ["sales.completion_rate"] }, share, rows)).y).toMatchObject({
      axis: { format: ".0~%" },
    });
    // Two money measures on one axis: money; money beside a share: no format for either.
    expect(encoding(chartSpec({ type: "bar", x: "sales.customers_country", y: ["sales.revenue", "sales.revenue_prev_month"] }, columns, rows)).y).toMatchObject(
      { axis: { format: "$,~f" } },
    );
    expect(encoding(chartSpec({ type: "bar", x: "sales.customers_country", y: ["sales.revenue", "sales.completion_rate"] }, share, rows)).y).not.toHaveProperty(
      "axis",
    );
  });

  it("label a plain count as numbers, and money along the bottom of sideways bars", () => {
    const counts = [...columns, { key: "sales.count", title: "Orders", type: "number" }];
    expect(encoding(chartSpec({ type: "bar", x: "sales.customers_country", y: ["sales.count"] }, counts, rows)).y).not.toHaveProperty("axis");
    const many = Array.from({ length: 8 }, (_, i) => ({ "sales.customers_country": `C${i}`, "sales.revenue": 10 + i }));
    const sideways = encoding(chartSpec({ type: "bar", x: "sales.customers_country", y: ["sales.revenue"] }, columns, many));
    expect(sideways.y).toMatchObject({ type: "nominal" });
    expect(sideways.x).toMatchObject({ type: "quantitative", axis: { format: "$,~f" } });
  });
});

describe("chartSpec with labelled values", () => {
  const labelled: NonNullable<ToolState["lastColumns"]> = [
    { ...columns[0]!, valueLabels: { GB: "Vereinigtes Königreich", MX: "Mexiko" } },
    columns[1]!,
    { key: "sales.status", title: "Status", type: "string", valueLabels: { completed: "abgeschlossen" } },
  ];
  const statusRows = [
    { "sales.customers_country": "GB", "sales.status": "completed", "sales.revenue": 25 },
    { "sales.customers_country": "MX", "sales.status": "returned", "sales.revenue": 19 },
  ];

  it("draws categories and series by their labels, as the answer's table shows them, in the rows' order", () => {
    const spec = chartSpec({ type: "bar", x: "sales.customers_country", y: ["sales.revenue"], series: "sales.status" }, labelled, statusRows) as {
      data: { values: Record<string, unknown>[] };
      encoding: Record<string, Record<string, unknown>>;
    };
    expect(spec.encoding.x).toMatchObject({ field: "sales\\.customers_country\\.label", title: "Country", sort: "-y" });
    expect(spec.encoding.color).toMatchObject({ field: "sales\\.status\\.label", title: "Status" });
    expect(spec.data.values.map((r) => [r["sales.customers_country.label"], r["sales.status.label"]])).toEqual([
      ["Vereinigtes Königreich", "abgeschlossen"],
      // A value without a label is drawn as it is.
      ["Mexiko", "returned"],
    ]);
    // A raw value named like an object's own property is no label.
    const odd = chartSpec({ type: "bar", x: "sales.status", y: ["sales.revenue"] }, labelled, [{ "sales.status": "constructor", "sales.revenue": 1 }]) as {
      data: { values: Record<string, unknown>[] };
    };
    expect(odd.data.values[0]!["sales.status.label"]).toBe("constructor");
    // The raw values stay in the rows.
    expect(spec.data.values[0]).toMatchObject({ "sales.customers_country": "GB", "sales.status": "completed" });
  });

  it("labels a pie's slices", () => {
    const spec = chartSpec({ type: "arc", x: "sales.customers_country", y: ["sales.revenue"] }, labelled, statusRows) as {
      encoding: Record<string, Record<string, unknown>>;
    };
    expect(spec.encoding.color).toMatchObject({ field: "sales\\.customers_country\\.label" });
  });
});

describe("chartSpec with many categories", () => {
  const many = ["US", "CA", "DE", "FR", "GB", "MX", "BR"].map((c, i) => ({ "sales.customers_country": c, "sales.revenue": 100 - i }));

  it("draws the bars sideways, largest first, each category's name whole down the side", () => {
    const spec = chartSpec({ type: "bar", x: "sales.customers_country", y: ["sales.revenue"] }, columns, many) as {
      encoding: Record<string, Record<string, unknown>>;
    };
    expect(spec.encoding.y).toEqual({ field: "sales\\.customers_country", type: "nominal", title: null, sort: "-x" });
    expect(spec.encoding.x).toMatchObject({ field: "sales\\.revenue", type: "quantitative", title: "Revenue" });
  });

  it("keeps a few categories, and the days of a week, along the bottom", () => {
    const few = chartSpec({ type: "bar", x: "sales.customers_country", y: ["sales.revenue"] }, columns, many.slice(0, 6)) as {
      encoding: Record<string, Record<string, unknown>>;
    };
    expect(few.encoding.x).toMatchObject({ field: "sales\\.customers_country", sort: "-y" });
    const days = [1, 2, 3, 4, 5, 6, 7].map((d) => ({ "sales.created_at.dayOfWeek": d, "sales.revenue": d }));
    const week = chartSpec(
      { type: "bar", x: "sales.created_at.dayOfWeek", y: ["sales.revenue"] },
      [{ key: "sales.created_at.dayOfWeek", title: "Day of week", type: "number", timePart: "dayOfWeek" }, columns[1]!],
      days,
    ) as { encoding: Record<string, Record<string, unknown>> };
    expect(week.encoding.x).toMatchObject({ type: "ordinal" });
    expect(week.encoding.x!.sort).toHaveLength(7);
  });
});
