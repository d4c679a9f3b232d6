// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SemanticQuery } from "../../shell/platform-api";
import { createEmbedStore } from "../../state/embed-store";
import { EmbedStoreProvider } from "../../state/use-embed-store";
import { FiltersPanel } from "./report-filters-panel";

afterEach(cleanup);

type Filters = NonNullable<SemanticQuery["filters"]>;
const members = [{ name: "sales.amount", title: "Amount", shortTitle: "Amount", type: "number" as const }];

function renderPanel(filters: Filters) {
  const onChange = vi.fn<(filters: Filters) => void>();
  render(
    <EmbedStoreProvider store={createEmbedStore()}>
      <FiltersPanel filters={filters} members={members} label={(m) => (typeof m === "string" ? m : m.shortTitle)} disabled={false} onChange={onChange} />
    </EmbedStoreProvider>,
  );
  return onChange;
}

describe("FiltersPanel", () => {
  it("adds a filter on the first member and removes one", () => {
    const kept = { member: "sales.amount", operator: "between" as const, values: [1, 2] };
    const onChange = renderPanel([kept, { member: "sales.amount", operator: "notBetween", values: [5, 6] }]);
    fireEvent.click(screen.getByRole("button", { name: "+ Filter" }));
    expect(onChange).toHaveBeenLastCalledWith([
      kept,
      { member: "sales.amount", operator: "notBetween", values: [5, 6] },
      { member: "sales.amount", operator: "equals", values: [] },
    ]);
    fireEvent.click(screen.getAllByRole("button", { name: "Remove filter" })[1]!);
    expect(onChange).toHaveBeenLastCalledWith([kept]);
  });

  it("replaces the edited filter only", () => {
    const onChange = renderPanel([
      { member: "sales.amount", operator: "between", values: [1, 2] },
      { member: "sales.amount", operator: "between", values: [] },
    ]);
    const lows = screen.getAllByTestId("filter-low");
    const highs = screen.getAllByTestId("filter-high");
    fireEvent.change(lows[1]!, { target: { value: "3" } });
    fireEvent.change(highs[1]!, { target: { value: "9" } });
    fireEvent.blur(highs[1]!);
    expect(onChange).toHaveBeenLastCalledWith([
      { member: "sales.amount", operator: "between", values: [1, 2] },
      { member: "sales.amount", operator: "between", values: [3, 9] },
    ]);
  });
});
