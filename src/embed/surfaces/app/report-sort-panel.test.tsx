// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SupportedLocale } from "../../i18n";
import type { SemanticQuery } from "../../shell/platform-api";
import { createEmbedStore } from "../../state/embed-store";
import { EmbedStoreProvider } from "../../state/use-embed-store";
import { appText } from "./app-messages";
import { SortPanel, sortChoicesOf } from "./report-sort-panel";

afterEach(cleanup);

const label = (m: string) => ({ "sales.count": "Count", "sales.created_at": "Order Date", "sales.status": "Status" })[m] ?? m;

describe("sortChoicesOf", () => {
  it.each([
    [
      "a part of time by its column, named in German",
      "de-DE",
      { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" as const }] },
      [
        ["sales.count", "Count"],
        ["sales.created_at.dayOfWeek", "Order Date (Wochentag)"],
      ],
    ],
    [
      "a period by its member",
      "en-US",
      { dimensions: ["sales.status"], timeDimensions: [{ dimension: "sales.created_at", granularity: "month" as const }] },
      [
        ["sales.status", "Status"],
        ["sales.created_at", "Order Date"],
      ],
    ],
  ])("lists %s", (_what, locale, query, expected) => {
    expect(sortChoicesOf(query, label, (key) => appText(locale, key))).toEqual(expected);
  });
});

describe("SortPanel", () => {
  function renderPanel(query: SemanticQuery, locale: SupportedLocale = "en-US") {
    const onChange = vi.fn<(edit: (q: SemanticQuery) => SemanticQuery) => void>();
    render(
      <EmbedStoreProvider store={createEmbedStore({ locale })}>
        <SortPanel query={query} label={label} disabled={false} onChange={onChange} />
      </EmbedStoreProvider>,
    );
    return (q: SemanticQuery) => onChange.mock.lastCall![0](q);
  }

  it("orders by a part of time's column, descending first, then ascending", () => {
    const query = { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "hourOfDay" as const }] };
    const applied = renderPanel(query, "de-DE");
    const select = screen.getByTestId("sort-member");
    expect(
      within(select)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["Standardreihenfolge", "Count", "Order Date (Stunde des Tages)"]);
    expect(screen.getByRole("group", { name: "Sortierung und Limit" })).toBeTruthy();
    fireEvent.change(select, { target: { value: "sales.created_at.hourOfDay" } });
    expect(applied(query).order).toEqual({ "sales.created_at.hourOfDay": "desc" });
  });

  it("turns the direction and keeps the limit within 1 … 50 000", () => {
    const query: SemanticQuery = { measures: ["sales.count"], order: [["sales.count", "desc"]] };
    const applied = renderPanel(query);
    fireEvent.change(screen.getByRole("combobox", { name: "Direction" }), { target: { value: "asc" } });
    expect(applied(query).order).toEqual({ "sales.count": "asc" });
    fireEvent.change(screen.getByRole("spinbutton"), { target: { value: "90000" } });
    expect(applied(query).limit).toBe(50000);
  });
});
