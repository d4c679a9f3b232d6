import { describe, expect, it } from "vitest";
import { createEmbedStore, DEFAULT_EMBED_STATE } from "./embed-store";

describe("createEmbedStore", () => {
  it("starts light, in the default locale, with no filters", () => {
    const state = createEmbedStore().getState();
    expect(state.colorScheme).toBe("light");
    expect(state.resolvedScheme).toBe("light");
    expect(state.locale).toBe("en-US");
    expect(state.filters).toEqual({});
    expect(state.refreshNonce).toBe(0);
  });

  it("takes initial values", () => {
    const store = createEmbedStore({ locale: "de-DE", timezone: "Europe/Berlin", path: "/x" });
    expect(store.getState()).toMatchObject({ locale: "de-DE", timezone: "Europe/Berlin", path: "/x" });
  });

  it("sets and clears one filter without touching others", () => {
    const store = createEmbedStore();
    const a = { member: "o.a", operator: "equals", value: 1 } as const;
    const b = { member: "o.b", operator: "is_null" } as const;
    store.getState().setFilter("o.a", a);
    store.getState().setFilter("o.b", b);
    store.getState().setFilter("o.a", null);
    expect(store.getState().filters).toEqual({ "o.b": b });
  });

  it("registers filter controls once and unregisters them", () => {
    const store = createEmbedStore();
    store.getState().registerFilterControls(["o.a", "o.b"]);
    store.getState().registerFilterControls(["o.a"]);
    expect(store.getState().filterControls).toEqual(["o.a", "o.b"]);
    expect(store.getState().hasFilterControl("o.b")).toBe(true);
    store.getState().unregisterFilterControls(["o.b"]);
    expect(store.getState().hasFilterControl("o.b")).toBe(false);
  });

  it("bumps the refresh nonce and notifies subscribers", () => {
    const store = createEmbedStore();
    const seen: number[] = [];
    store.subscribe((s) => seen.push(s.refreshNonce));
    store.getState().refresh();
    store.getState().refresh();
    expect(seen).toEqual([1, 2]);
  });

  it("keeps separate instances independent", () => {
    const one = createEmbedStore();
    const two = createEmbedStore();
    one.getState().navigate("/elsewhere");
    expect(two.getState().path).toBe(DEFAULT_EMBED_STATE.path);
  });
});
