// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createEmbedStore } from "../../state/embed-store";
import { EmbedStoreProvider } from "../../state/use-embed-store";
import type { MetaMember } from "./app-api";
import { BreakoutsPanel } from "./report-breakouts-panel";

afterEach(cleanup);

const members: MetaMember[] = [
  { name: "s.country", title: "Country", shortTitle: "Country", type: "string" },
  { name: "s.category", title: "Category", shortTitle: "Category", type: "string" },
  { name: "s.status", title: "Status", shortTitle: "Status", type: "string" },
];

function renderPanel(dimensions: string[]) {
  const onChange = vi.fn<(dimensions: string[]) => void>();
  render(
    <EmbedStoreProvider store={createEmbedStore({ locale: "en-US" })}>
      <BreakoutsPanel dimensions={dimensions} members={members} label={(m) => m.shortTitle} disabled={false} onChange={onChange} />
    </EmbedStoreProvider>,
  );
  return onChange;
}

describe("BreakoutsPanel", () => {
  it("adds a breakout still to be picked, marked incomplete", () => {
    const onChange = renderPanel(["s.country"]);
    expect(screen.queryByTestId("breakout-incomplete")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "+ Breakout" }));
    expect(onChange).toHaveBeenLastCalledWith(["s.country", ""]);
    cleanup();
    renderPanel(["s.country", ""]);
    expect(screen.getByTestId("breakout-incomplete").textContent).toBe("incomplete — left out");
    expect(screen.getByRole("combobox", { name: "Breakout 2" })).toHaveProperty("value", "");
  });

  it("moves, picks and removes breakouts, a dimension once only", () => {
    const onChange = renderPanel(["s.country", "s.category", "s.status"]);
    const up = screen.getAllByRole("button", { name: "Move up" });
    const down = screen.getAllByRole("button", { name: "Move down" });
    expect(up[0]).toHaveProperty("disabled", true);
    expect(down[2]).toHaveProperty("disabled", true);
    fireEvent.click(up[2]!);
    expect(onChange).toHaveBeenLastCalledWith(["s.country", "s.status", "s.category"]);
    fireEvent.click(down[0]!);
    expect(onChange).toHaveBeenLastCalledWith(["s.category", "s.country", "s.status"]);
    fireEvent.click(screen.getAllByRole("button", { name: "Remove breakout" })[1]!);
    expect(onChange).toHaveBeenLastCalledWith(["s.country", "s.status"]);
    const first = screen.getByRole("combobox", { name: "Breakout 1" });
    expect(first.querySelector('option[value="s.category"]')).toHaveProperty("disabled", true);
    expect(first.querySelector('option[value="s.country"]')).toHaveProperty("disabled", false);
    fireEvent.change(first, { target: { value: "s.country" } });
    expect(onChange).toHaveBeenLastCalledWith(["s.country", "s.category", "s.status"]);
  });
});
