// @vitest-environment jsdom
import { act, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createEmbedStore } from "./embed-store";
import { EmbedStoreProvider, useEmbedStore } from "./use-embed-store";

function Locale() {
  return <span data-testid="locale">{useEmbedStore((s) => s.locale)}</span>;
}

describe("useEmbedStore", () => {
  it("renders the selected slice and re-renders when the store changes outside React", () => {
    const store = createEmbedStore();
    render(
      <EmbedStoreProvider store={store}>
        <Locale />
      </EmbedStoreProvider>,
    );
    expect(screen.getByTestId("locale").textContent).toBe("en-US");
    act(() => store.getState().setLocale("sv-SE"));
    expect(screen.getByTestId("locale").textContent).toBe("sv-SE");
  });

  it("throws without a provider", () => {
    expect(() => render(<Locale />)).toThrow(/EmbedStoreProvider/);
  });
});
