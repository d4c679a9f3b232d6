import { describe, expect, it } from "vitest";
import { describeChart } from "./chart-description";

const revenue = { key: "sales.revenue", title: "Revenue" };

describe("describeChart", () => {
  it("counts data points with the plural form of the locale", () => {
    expect(describeChart("en-US", "Revenue by month", [{ "sales.revenue": 12 }], revenue)).toBe("Revenue by month: 1 data point, Revenue from 12 to 12.");
    expect(describeChart("en-US", "Revenue", [{ "sales.revenue": 1 }, { "sales.revenue": 3 }], revenue)).toBe("Revenue: 2 data points, Revenue from 1 to 3.");
    expect(describeChart("de-DE", "Umsatz", [{ "sales.revenue": 5 }], revenue)).toBe("Umsatz: 1 Datenpunkt, Revenue von 5 bis 5.");
    expect(describeChart("de-DE", "Umsatz", [], revenue)).toBe("Umsatz: 0 Datenpunkte.");
    // French counts 0 and 1 as singular.
    expect(describeChart("fr-FR", "Ventes", [], null)).toBe("Ventes : 0 point de données.");
  });
});
