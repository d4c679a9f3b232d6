import { describe, expect, it } from "vitest";
import { filtersLineOf } from "./dashboard-pdf-content";

const labelOf = (member: string) => ({ "sales.status": "Status", "sales.customers_country": "Land", "sales.created_at": "Bestelldatum" })[member] ?? member;
const labels: Record<string, string> = { completed: "abgeschlossen", shipped: "versandt", DE: "Deutschland" };
const valueLabel = (_member: string, value: unknown) => (typeof value === "string" ? labels[value] : undefined);

describe("filtersLineOf", () => {
  it("says All without filters", () => {
    expect(filtersLineOf("de-DE", {}, labelOf, valueLabel)).toBe("Filter: Alle");
    expect(filtersLineOf("en-US", {}, labelOf, valueLabel)).toBe("Filters: All");
  });

  it("names each filter by its control's label and its values by their labels, dates and numbers in the locale", () => {
    const line = filtersLineOf(
      "de-DE",
      {
        "sales.status": { member: "sales.status", operator: "equals", value: ["completed", "shipped"] },
        "sales.customers_country": { member: "sales.customers_country", operator: "not_equals", value: "DE" },
        "sales.created_at": { member: "sales.created_at", operator: "between", value: ["2025-01-01", "2025-06-30"] },
        "sales.amount": { member: "sales.amount", operator: "greater_than_or_equal", value: 1500.5 },
        "sales.city": { member: "sales.city", operator: "contains", value: "burg" },
      },
      labelOf,
      valueLabel,
    );
    expect(line).toBe(
      "Filter: Status: abgeschlossen, versandt · Land: ≠ Deutschland · Bestelldatum: 01.01.2025 – 30.06.2025 · sales.amount: ≥ 1.500,5 · sales.city: …burg…",
    );
  });
});
