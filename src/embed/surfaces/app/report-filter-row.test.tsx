// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MemberFilter } from "../../../schema/semantic-query";
import type { SupportedLocale } from "../../i18n";
import { createEmbedStore } from "../../state/embed-store";
import { EmbedStoreProvider } from "../../state/use-embed-store";
import { FilterRow } from "./report-filter-row";

afterEach(cleanup);

const members = [
  { name: "sales.amount", title: "Amount", shortTitle: "Amount", type: "number" as const },
  { name: "sales.status", title: "Status", shortTitle: "Status", type: "string" as const },
];

function renderRow(filter: MemberFilter, locale: SupportedLocale = "en-US") {
  const onChange = vi.fn<(f: MemberFilter) => void>();
  render(
    <EmbedStoreProvider store={createEmbedStore({ locale })}>
      <FilterRow filter={filter} members={members} label={(m) => (typeof m === "string" ? m : m.shortTitle)} onChange={onChange} onRemove={() => {}} />
    </EmbedStoreProvider>,
  );
  return onChange;
}

describe("FilterRow", () => {
  it("takes a between filter's bounds from two number fields, lower first", () => {
    const onChange = renderRow({ member: "sales.amount", operator: "between", values: [] });
    fireEvent.change(screen.getByTestId("filter-low"), { target: { value: "100" } });
    fireEvent.blur(screen.getByTestId("filter-low"));
    expect(onChange).toHaveBeenLastCalledWith({ member: "sales.amount", operator: "between", values: [] });
    fireEvent.change(screen.getByTestId("filter-high"), { target: { value: "10" } });
    fireEvent.blur(screen.getByTestId("filter-high"));
    expect(onChange).toHaveBeenLastCalledWith({ member: "sales.amount", operator: "between", values: [10, 100] });
  });

  it.each([
    ["en-US", "From", "To"],
    ["de-DE", "Von", "Bis"],
  ] as const)("labels the bounds in %s and shows the saved ones", (locale, low, high) => {
    renderRow({ member: "sales.amount", operator: "notBetween", values: [5, 50] }, locale);
    expect(screen.getByRole("spinbutton", { name: low })).toHaveProperty("value", "5");
    expect(screen.getByRole("spinbutton", { name: high })).toHaveProperty("value", "50");
  });

  it("offers between on a number member only", () => {
    renderRow({ member: "sales.amount", operator: "between", values: [1, 2] });
    const operators = within(screen.getByRole("combobox", { name: "Operator" }))
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(operators).toContain("between");
    expect(operators).not.toContain("contains");
  });

  it("keeps the bounds from between to notBetween", () => {
    const onChange = renderRow({ member: "sales.amount", operator: "between", values: [1, 2] });
    fireEvent.change(screen.getByRole("combobox", { name: "Operator" }), { target: { value: "notBetween" } });
    expect(onChange).toHaveBeenLastCalledWith({ member: "sales.amount", operator: "notBetween", values: [1, 2] });
  });
});
