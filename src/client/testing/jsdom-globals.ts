/**
 * A jsdom document on the Node globals, for React tests that also run the in-process server
 * (vitest's jsdom environment serves modules as for a browser, which the server cannot load).
 * Import it before React and Testing Library.
 */
// @ts-expect-error -- jsdom ships without type declarations and @types/jsdom is not installed
import { JSDOM } from "jsdom";

const dom = new JSDOM("<!doctype html><html><body></body></html>", { url: "http://localhost/", pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const key of [
  "window",
  "document",
  "navigator",
  "HTMLElement",
  "Element",
  "Node",
  "Text",
  "MutationObserver",
  "getComputedStyle",
  "requestAnimationFrame",
  "cancelAnimationFrame",
]) {
  if (!(key in g) || key === "navigator") {
    Object.defineProperty(g, key, { value: (dom.window as unknown as Record<string, unknown>)[key], configurable: true, writable: true });
  }
}
g.IS_REACT_ACT_ENVIRONMENT = true;
