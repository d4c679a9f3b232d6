import { describe, expect, it } from "vitest";
import { chartSpec } from "./tools";

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
