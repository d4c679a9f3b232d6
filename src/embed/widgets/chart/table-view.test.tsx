// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup } from "@testing-library/react";
import { calculationsQuery, calculationsResult, compareQuery, compareResult } from "../../export/result-fixtures";
import type { SupportedLocale } from "../../i18n";
import { createEmbedStore } from "../../state/embed-store";
import { EmbedStoreProvider } from "../../state/use-embed-store";
import { tableColumnsOf } from "./table-model";
import { TableView } from "./table-view";

afterEach(cleanup);

function renderTable(result: typeof compareResult, query: typeof compareQuery, locale: SupportedLocale, onDrill?: () => void) {
  const store = createEmbedStore({ locale });
  render(
    <EmbedStoreProvider store={store}>
      <TableView columns={tableColumnsOf(result.data, result.annotation, query, null)} rows={result.data} caption="Result" onDrill={onDrill} />
    </EmbedStoreProvider>,
  );
  const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
  const rows = screen
    .getAllByRole("row")
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    );
  return { headers, rows };
}

describe("TableView on compare and calculations results", () => {
  it.each([
    [
      "compare",
      "en-US",
      compareResult,
      compareQuery,
      ["Products Category", "Revenue (Q1 2024)", "Revenue (Q1 2025)", "Revenue (change)", "Revenue (% change)"],
      [
        ["Books", "$1,000.00", "$1,250.00", "+$250.00", "+25%"],
        ["Games", "$800.00", "$700.00", "-$100.00", "-12.5%"],
      ],
    ],
    [
      "compare",
      "de-DE",
      compareResult,
      compareQuery,
      ["Products Category", "Revenue (Q1 2024)", "Revenue (Q1 2025)", "Revenue (change)", "Revenue (% change)"],
      [
        ["Books", "1.000,00 $", "1.250,00 $", "+250,00 $", "+25 %"],
        ["Games", "800,00 $", "700,00 $", "-100,00 $", "-12,5 %"],
      ],
    ],
    [
      "calculations",
      "en-US",
      calculationsResult,
      calculationsQuery,
      ["Products Category", "Revenue", "Returned share", "Revenue (% of total)", "Revenue (running total)", "Revenue (rank)"],
      [
        ["Books", "$750.00", "4%", "75%", "$750.00", "1"],
        ["Games", "$250.00", "12.5%", "25%", "$1,000.00", "2"],
      ],
    ],
    [
      "calculations",
      "de-DE",
      calculationsResult,
      calculationsQuery,
      ["Products Category", "Revenue", "Returned share", "Revenue (% of total)", "Revenue (running total)", "Revenue (rank)"],
      [
        ["Books", "750,00 $", "4 %", "75 %", "750,00 $", "1"],
        ["Games", "250,00 $", "12,5 %", "25 %", "1.000,00 $", "2"],
      ],
    ],
  ])("shows a %s result in %s with titles and formats", (_kind, locale, result, query, headers, rows) => {
    const table = renderTable(result, query, locale as SupportedLocale);
    const normal = (text: string | null) => (text ?? "").replace(/\u00a0|\u202f/g, " ");
    expect(table.headers.map(normal)).toEqual(headers);
    expect(table.rows.map((r) => r.map(normal))).toEqual(rows);
  });

  it("drills from a measure but not from the columns computed from measures", () => {
    renderTable(calculationsResult, calculationsQuery, "en-US", () => {});
    const firstRow = screen.getAllByRole("row")[1]!;
    const buttons = within(firstRow)
      .getAllByRole("button")
      .map((b) => b.textContent);
    expect(buttons).toEqual(["$750.00", "4%"]);
  });
});

describe("TableView wider than its widget", () => {
  it("marks the side where more columns wait, and the other once scrolled to the end", () => {
    renderTable(compareResult, compareQuery, "en-US");
    const table = screen.getByRole("table");
    const scroll = table.querySelector<HTMLElement>(".svc-table-scroll")!;
    // jsdom lays nothing out: the sizes a 300 px widget showing a 700 px table would have.
    Object.defineProperty(scroll, "clientWidth", { configurable: true, value: 300 });
    Object.defineProperty(scroll, "scrollWidth", { configurable: true, value: 700 });
    fireEvent.scroll(scroll);
    expect(table.dataset.moreRight).toBe("true");
    expect(table.dataset.moreLeft).toBeUndefined();
    scroll.scrollLeft = 400;
    fireEvent.scroll(scroll);
    expect(table.dataset.moreRight).toBeUndefined();
    expect(table.dataset.moreLeft).toBe("true");
  });
});
