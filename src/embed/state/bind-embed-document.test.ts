// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { bindEmbedDocument, type EmbedDocumentWindow } from "./bind-embed-document";
import { createEmbedStore } from "./embed-store";

function osWindow(dark: boolean) {
  const listeners = new Set<(e: { matches: boolean }) => void>();
  const media = {
    matches: dark,
    addEventListener: (_t: "change", l: (e: { matches: boolean }) => void) => listeners.add(l),
    removeEventListener: (_t: "change", l: (e: { matches: boolean }) => void) => listeners.delete(l),
  };
  const win = { matchMedia: () => media, document } as unknown as EmbedDocumentWindow;
  return {
    win,
    setDark: (d: boolean) => {
      media.matches = d;
      listeners.forEach((l) => l({ matches: d }));
    },
    listeners,
  };
}

describe("bindEmbedDocument", () => {
  it("applies scheme, theme and lang from the store and follows later changes", () => {
    const store = createEmbedStore({ locale: "fr-FR", theme: { primaryColor: "#000000" } });
    const os = osWindow(true);
    const unbind = bindEmbedDocument(store, os.win);
    const root = document.documentElement;
    expect(root.lang).toBe("fr-FR");
    expect(root.getAttribute("data-color-scheme")).toBe("light");
    expect(root.style.getPropertyValue("--svc-primary")).toBe("#000000");

    store.getState().setColorScheme("auto");
    expect(store.getState().resolvedScheme).toBe("dark");
    os.setDark(false);
    expect(store.getState().resolvedScheme).toBe("light");
    store.getState().setLocale("ja-JP");
    expect(root.lang).toBe("ja-JP");
    store.getState().setTheme({ borderRadius: 3 });
    expect(root.style.getPropertyValue("--svc-primary")).toBe("");
    expect(root.style.getPropertyValue("--svc-radius")).toBe("3px");

    unbind();
    expect(os.listeners.size).toBe(0);
    store.getState().setLocale("de-DE");
    expect(root.lang).toBe("ja-JP");
  });
});
