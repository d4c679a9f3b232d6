// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SupportedLocale } from "../../i18n";
import type { SemanticQuery } from "../../shell/platform-api";
import { createEmbedStore } from "../../state/embed-store";
import { EmbedStoreProvider } from "../../state/use-embed-store";
import { TimePanel } from "./report-time-panel";

afterEach(cleanup);

type TimeDimension = NonNullable<SemanticQuery["timeDimensions"]>[number];
const members = [{ name: "sales.created_at", title: "Sales Created At", shortTitle: "Created At", type: "time" as const }];

function renderPanel(value: TimeDimension | undefined, locale: SupportedLocale = "en-US") {
  const onChange = vi.fn<(td: TimeDimension | null) => void>();
  render(
    <EmbedStoreProvider store={createEmbedStore({ locale })}>
      <TimePanel members={members} value={value} label={(m) => m.shortTitle} disabled={false} onChange={onChange} />
    </EmbedStoreProvider>,
  );
  return onChange;
}

describe("TimePanel", () => {
  it.each([
    [
      "en-US",
      "Group by",
      "Parts of time",
      ["Day of the week", "Hour of the day", "Day of the month", "Week of the year", "Month of the year", "Quarter of the year"],
    ],
    [
      "de-DE",
      "Gruppieren nach",
      "Zeitbestandteile",
      ["Wochentag", "Stunde des Tages", "Tag des Monats", "Kalenderwoche", "Monat des Jahres", "Quartal des Jahres"],
    ],
  ] as const)("names the parts of time in %s", (locale, groupBy, partsOfTime, names) => {
    renderPanel({ dimension: "sales.created_at", granularity: "month" }, locale);
    const select = screen.getByRole("combobox", { name: groupBy });
    const group = within(select).getByRole("group", { name: partsOfTime });
    expect(
      within(group)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(names);
  });

  it("groups by a part of time instead of the period, keeping the date range", () => {
    const onChange = renderPanel({ dimension: "sales.created_at", granularity: "month", dateRange: "This year" });
    fireEvent.change(screen.getByTestId("time-grouping"), { target: { value: "part:hourOfDay" } });
    expect(onChange).toHaveBeenLastCalledWith({ dimension: "sales.created_at", part: "hourOfDay", dateRange: "This year" });
  });

  it("shows the chosen part and offers no comparison with the year before for it", () => {
    renderPanel({ dimension: "sales.created_at", part: "dayOfWeek" });
    expect(screen.getByTestId("time-grouping")).toHaveProperty("value", "part:dayOfWeek");
    expect(screen.queryByText(/Compare with the year before/)).toBeNull();
  });

  it("starts a first time dimension by month and clears it with None", () => {
    const onChange = renderPanel(undefined);
    fireEvent.change(screen.getByTestId("time-dimension"), { target: { value: "sales.created_at" } });
    expect(onChange).toHaveBeenLastCalledWith({ dimension: "sales.created_at", granularity: "month" });
    cleanup();
    const onClear = renderPanel({ dimension: "sales.created_at", part: "dayOfWeek" });
    fireEvent.change(screen.getByTestId("time-dimension"), { target: { value: "" } });
    expect(onClear).toHaveBeenLastCalledWith(null);
  });

  it.each([
    ["en-US", ["Day", "Week", "Month", "Quarter", "Year"], "Date range", "Previous 7 days", "Custom range"],
    ["de-DE", ["Tag", "Woche", "Monat", "Quartal", "Jahr"], "Zeitraum", "Letzte 7 Tage", "Eigener Zeitraum"],
    ["ja-JP", ["日", "週", "月", "四半期", "年"], "期間", "過去7日間", "期間を指定"],
  ] as const)("names the periods and the date ranges in %s", (locale, periods, dateRange, last7, custom) => {
    renderPanel({ dimension: "sales.created_at", granularity: "month" }, locale);
    const group = within(screen.getByTestId("time-grouping")).getAllByRole("group")[0]!;
    expect(
      within(group)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(periods);
    const ranges = within(screen.getByRole("combobox", { name: dateRange }))
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(ranges).toHaveLength(10);
    expect(ranges).toContain(last7);
    expect(ranges.at(-1)).toBe(custom);
  });

  it.each([["last 7 days"], ["last 30 days"], ["this month"], ["last month"], ["this quarter"], ["last quarter"], ["this year"], ["last year"]])(
    "sends the relative range %j as the query contract spells it",
    (range) => {
      const onChange = renderPanel({ dimension: "sales.created_at", granularity: "month" });
      fireEvent.change(screen.getByTestId("time-range"), { target: { value: range } });
      expect(onChange).toHaveBeenLastCalledWith({ dimension: "sales.created_at", granularity: "month", dateRange: range });
    },
  );

  it("takes a custom range as two dates, the first one alone while the second is missing", () => {
    const onChange = renderPanel({ dimension: "sales.created_at", granularity: "month", dateRange: "this year" });
    fireEvent.change(screen.getByTestId("time-range"), { target: { value: "custom" } });
    expect(onChange).toHaveBeenLastCalledWith({ dimension: "sales.created_at", granularity: "month", dateRange: ["", ""] });
    cleanup();
    const onDates = renderPanel({ dimension: "sales.created_at", granularity: "month", dateRange: ["", ""] });
    fireEvent.change(screen.getByTestId("time-range-start"), { target: { value: "1/1/2025" } });
    fireEvent.keyDown(screen.getByTestId("time-range-start"), { key: "Enter" });
    expect(onDates).toHaveBeenLastCalledWith({ dimension: "sales.created_at", granularity: "month", dateRange: ["2025-01-01", ""] });
    expect(screen.getByTestId("time-range")).toHaveProperty("value", "custom");
    expect(screen.getByTestId("time-range-incomplete").textContent).toBe("incomplete — left out");
    cleanup();
    renderPanel({ dimension: "sales.created_at", granularity: "month", dateRange: ["2025-01-01", "2025-03-31"] });
    expect(screen.queryByTestId("time-range-incomplete")).toBeNull();
  });
});
