/** The chart palette of the active theme and scheme, read from the --svc-* CSS variables. */
import { useMemo } from "react";
import { useEmbedStore } from "../../state/use-embed-store";
import type { ChartPalette } from "./vega-theme";

const SYSTEM_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export function readChartPalette(scheme: "light" | "dark"): ChartPalette {
  const style = typeof document === "undefined" ? null : getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style?.getPropertyValue(name).trim() || fallback;
  return {
    scheme,
    primary: read("--svc-primary", scheme === "dark" ? "#818cf8" : "#4f46e5"),
    text: read("--svc-text", scheme === "dark" ? "#e5e7eb" : "#111827"),
    mutedText: read("--svc-text-muted", scheme === "dark" ? "#9ca3af" : "#6b7280"),
    grid: read("--svc-chart-grid", scheme === "dark" ? "#2a3140" : "#e5e7eb"),
    font: read("--svc-font", SYSTEM_FONT),
  };
}

/** Recomputed when the scheme or the theme changes (the document binding has applied them by then). */
export function useChartPalette(): ChartPalette {
  const scheme = useEmbedStore((s) => s.resolvedScheme);
  const theme = useEmbedStore((s) => s.theme);
  // The palette is read from CSS variables the theme has just written: `theme` is the trigger.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => readChartPalette(scheme), [scheme, theme]);
}
