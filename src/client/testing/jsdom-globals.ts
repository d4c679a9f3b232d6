/**
 * A jsdom document on the Node globals, for React tests that also run the in-process server
 * (vitest's jsdom environment serves modules as for a browser, which the server cannot load).
 * Import it before React and Testing Library, and give the globals back when the file ends:
 * `afterAll(removeJsdomGlobals)`. The suite's workers run file after file in one process
 * (vitest.config.ts), so a `window` left behind makes the next file's server code believe it runs
 * in a browser (the OpenAI client then refuses to start).
 */
// @ts-expect-error -- jsdom ships without type declarations and @types/jsdom is not installed
import { JSDOM } from "jsdom";

const KEYS = [
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
  "IS_REACT_ACT_ENVIRONMENT",
] as const;

const g = globalThis as Record<string, unknown>;
/** What each global was before (undefined: it was not there), while the document is installed. */
let saved: Map<string, PropertyDescriptor | undefined> | null = null;

/** Puts a fresh jsdom document on the globals (once until removed). */
export function installJsdomGlobals(): void {
  if (saved) return;
  const dom = new JSDOM("<!doctype html><html><body></body></html>", { url: "http://localhost/", pretendToBeVisual: true });
  // jsdom ships without types (above): its window is read as a record of globals.
  const win: Record<string, unknown> = dom.window;
  saved = new Map();
  for (const key of KEYS) {
    // Node's own globals stay, except navigator (Node's has no userAgent data a DOM test expects).
    if (key in g && key !== "navigator" && key !== "IS_REACT_ACT_ENVIRONMENT") continue;
    saved.set(key, Object.getOwnPropertyDescriptor(g, key));
    const value = key === "IS_REACT_ACT_ENVIRONMENT" ? true : win[key];
    Object.defineProperty(g, key, { value, configurable: true, writable: true });
  }
}

/** Gives the globals back as they were before `installJsdomGlobals`. */
export function removeJsdomGlobals(): void {
  if (!saved) return;
  for (const [key, before] of saved) {
    if (before) Object.defineProperty(g, key, before);
    else delete g[key];
  }
  saved = null;
}

installJsdomGlobals();
