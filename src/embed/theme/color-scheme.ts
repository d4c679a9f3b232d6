/**
 * Colour scheme controller: light, dark, or auto following the OS preference live. Writes
 * `data-color-scheme` (the resolved scheme) and the `color-scheme` property on the root so
 * native controls and scrollbars follow too.
 */
import type { ColorScheme } from "../../protocol";

export type ResolvedColorScheme = "light" | "dark";

/** What the controller needs from `window`; a real window satisfies it. */
export interface ColorSchemeWindow {
  matchMedia(query: string): {
    matches: boolean;
    addEventListener(type: "change", listener: (event: { matches: boolean }) => void): void;
    removeEventListener(type: "change", listener: (event: { matches: boolean }) => void): void;
  };
  document: {
    documentElement: { setAttribute(name: string, value: string): void; style: { setProperty(name: string, value: string): void } };
  };
}

export interface ColorSchemeControllerOptions {
  window: ColorSchemeWindow;
  /** Starting preference; default `light` so dark mode never turns on unasked. */
  initial?: ColorScheme;
  /** Called with every change of the resolved scheme (also the first). */
  onResolvedChange?: (scheme: ResolvedColorScheme) => void;
}

export interface ColorSchemeController {
  set(preference: ColorScheme): void;
  preference(): ColorScheme;
  resolved(): ResolvedColorScheme;
  destroy(): void;
}

export const DARK_SCHEME_QUERY = "(prefers-color-scheme: dark)";

export function createColorSchemeController(options: ColorSchemeControllerOptions): ColorSchemeController {
  const media = options.window.matchMedia(DARK_SCHEME_QUERY);
  const root = options.window.document.documentElement;
  let preference: ColorScheme = options.initial ?? "light";
  let resolved: ResolvedColorScheme | null = null;

  const apply = () => {
    const next: ResolvedColorScheme = preference === "auto" ? (media.matches ? "dark" : "light") : preference;
    root.setAttribute("data-color-scheme", next);
    root.style.setProperty("color-scheme", next);
    if (next !== resolved) {
      resolved = next;
      options.onResolvedChange?.(next);
    }
  };
  // Listening all the time keeps the logic simple; the listener only acts in auto mode.
  const onChange = () => {
    if (preference === "auto") apply();
  };
  media.addEventListener("change", onChange);
  apply();

  return {
    set(next) {
      preference = next;
      apply();
    },
    preference: () => preference,
    resolved: () => resolved ?? "light",
    destroy() {
      media.removeEventListener("change", onChange);
    },
  };
}
