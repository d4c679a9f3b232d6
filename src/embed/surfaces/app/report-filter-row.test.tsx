// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MemberFilter } from "../../../schema/semantic-query";
import type { SupportedLocale } from "../../i18n";
import { renderInApp } from "./report-builder-fixtures";
import { FilterRow } from "./report-filter-row";

afterEach(cleanup);

const members = [
  { name: "sales.amount", title: "Amount", shortTitle: "Amount", type: "number" as const },
  { name: "sales.status", title: "Status", shortTitle: "Status", type: "string" as const },
  { name: "sales.created_at", title: "Created", shortTitle: "Created", type: "time" as const },
];

function renderRow(filter: MemberFilter, locale: SupportedLocale = "en-US") {
  const onChange = vi.fn<(f: MemberFilter) => void>();
  renderInApp(
    <FilterRow filter={filter} members={members} label={(m) => (typeof m === "string" ? m : m.shortTitle)} onChange={onChange} onRemove={() => {}} />,
    {
      locale,
      platform: () => ({ body: { values: [] } }),
    },
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

  it.each([
    [
      "en-US",
      "sales.amount",
      "Operator",
      ["is", "is not", "is any of", "is none of", "greater than", "at least", "less than", "at most", "between", "not between", "is not empty", "is empty"],
    ],
    [
      "de-DE",
      "sales.status",
      "Bedingung",
      [
        "ist",
        "ist nicht",
        "ist einer von",
        "ist keiner von",
        "enthält",
        "enthält nicht",
        "beginnt mit",
        "beginnt nicht mit",
        "endet mit",
        "endet nicht mit",
        "ist nicht leer",
        "ist leer",
      ],
    ],
    [
      "en-US",
      "sales.created_at",
      "Operator",
      [
        "is",
        "is not",
        "is any of",
        "is none of",
        "in the range",
        "not in the range",
        "before",
        "on or before",
        "after",
        "on or after",
        "is not empty",
        "is empty",
      ],
    ],
    [
      "fr-FR",
      "sales.created_at",
      "Condition",
      [
        "est",
        "n'est pas",
        "est l'un de",
        "n'est aucun de",
        "dans la période",
        "hors de la période",
        "avant le",
        "le ou avant le",
        "après le",
        "le ou après le",
        "n'est pas vide",
        "est vide",
      ],
    ],
  ] as const)("names the operators in %s as people say them (%s)", (locale, member, operatorLabel, names) => {
    renderRow({ member, operator: "equals", values: ["1"] }, locale);
    const operators = within(screen.getByRole("combobox", { name: operatorLabel }))
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(operators).toEqual(names);
  });

  it.each([
    ["no value yet", { member: "sales.amount", operator: "equals", values: [] }, true],
    ["a word in a number filter", { member: "sales.amount", operator: "equals", values: ["ten"] }, true],
    ["one bound of a between", { member: "sales.amount", operator: "between", values: [] }, true],
    ["half a date range", { member: "sales.created_at", operator: "inDateRange", values: ["2025-01-01", ""] }, true],
    ["a value", { member: "sales.amount", operator: "equals", values: ["10"] }, false],
    ["a date range", { member: "sales.created_at", operator: "inDateRange", values: ["2025-01-01", "2025-02-01"] }, false],
    ["is empty", { member: "sales.status", operator: "notSet", values: [] }, false],
  ] as const)("marks a filter with %s as incomplete: %s", (_what, filter, incomplete) => {
    renderRow({ ...filter, values: [...filter.values] });
    expect(screen.queryByTestId("filter-incomplete")?.textContent ?? null).toBe(incomplete ? "incomplete — left out" : null);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("keeps a word typed in a number filter, so the filter stays incomplete instead of running without it", () => {
    const onChange = renderRow({ member: "sales.amount", operator: "in", values: [] });
    fireEvent.change(screen.getByTestId("filter-values"), { target: { value: "10, ten" } });
    fireEvent.blur(screen.getByTestId("filter-values"));
    expect(onChange).toHaveBeenLastCalledWith({ member: "sales.amount", operator: "in", values: ["10", "ten"] });
  });

  it("takes the two dates of a date range, the first alone while the second is missing", () => {
    const onChange = renderRow({ member: "sales.created_at", operator: "inDateRange", values: [] });
    // Typed as the viewer's locale writes dates (en-US here), passed on when the field is left.
    fireEvent.change(screen.getByTestId("filter-from"), { target: { value: "01/01/2025" } });
    fireEvent.blur(screen.getByTestId("filter-from"));
    expect(onChange).toHaveBeenLastCalledWith({ member: "sales.created_at", operator: "inDateRange", values: ["2025-01-01", ""] });
  });
});
