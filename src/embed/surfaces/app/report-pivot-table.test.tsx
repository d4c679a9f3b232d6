// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { createEmbedStore } from "../../state/embed-store";
import { EmbedStoreProvider } from "../../state/use-embed-store";
import { pivotOf } from "./report-pivot";
import { PivotTable } from "./report-pivot-table";

afterEach(cleanup);

const model = pivotOf({
  rows: [
    { country: "DE", "s.created_at.quarter": "2025-01-01T00:00:00.000", units: 4, avg: 12.5 },
    { country: "DE", "s.created_at.quarter": "2025-04-01T00:00:00.000", units: 6, avg: 20 },
  ],
  rowKeys: ["country"],
  columnKey: "s.created_at.quarter",
  values: [
    { key: "units", additive: true },
    { key: "avg", additive: false },
  ],
});
const titles: Record<string, string> = { country: "Country", "s.created_at.quarter": "Quarter", units: "Units", avg: "Average" };

function renderTable(locale: "en-US" | "de-DE" = "en-US") {
  render(
    <EmbedStoreProvider store={createEmbedStore({ locale })}>
      <PivotTable
        model={model}
        caption="Country × Quarter"
        columnOf={(key) => ({ key, title: titles[key]!, type: key === "s.created_at.quarter" ? "time" : key === "country" ? "string" : "number" })}
        ctx={{ locale, timezone: null }}
      />
    </EmbedStoreProvider>,
  );
}

describe("PivotTable", () => {
  it("is a captioned table of scoped headers, the values across by their period, a total only for values that add up", () => {
    renderTable();
    const table = screen.getByRole("table", { name: "Country × Quarter" });
    const groups = within(table)
      .getAllByRole("columnheader")
      .filter((h) => h.getAttribute("scope") === "colgroup");
    expect(groups.map((h) => h.textContent)).toEqual(["Q1 2025", "Q2 2025", "Total"]);
    expect(within(table).getByRole("rowheader", { name: "DE" }).getAttribute("scope")).toBe("row");
    const totals = screen.getByTestId("pivot-totals");
    expect([...totals.querySelectorAll("th, td")].map((c) => c.textContent)).toEqual([
      "Total",
      "4",
      "–No total: not additive",
      "6",
      "–No total: not additive",
      "10",
      "–No total: not additive",
    ]);
    const none = totals.querySelector("td.is-none")!;
    expect(none.getAttribute("title")).toBe("No total: not additive");
    expect(none.querySelector('[aria-hidden="true"]')!.textContent).toBe("–");
  });

  it("speaks the viewer's language", () => {
    renderTable("de-DE");
    expect(screen.getByTestId("pivot-totals").querySelector("th")!.textContent).toBe("Gesamt");
    expect(screen.getByTestId("pivot-totals").querySelector("td.is-none")!.getAttribute("title")).toBe("Keine Summe: nicht addierbar");
  });
});
