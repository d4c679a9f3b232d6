/**
 * A chart's drawing as SVG without drawing it on the page: for the dashboard PDF, when the chart
 * has not been drawn yet (it waits off screen until scrolled to, use-near-viewport.ts). The chart
 * worker draws it once at the size its card gives it and forgets it.
 */
import { chartWorkerSupported, createWorkerChart } from "./chart-worker-client";
import { withLegendColumns } from "./draw-on-page";
import type { VegaLiteSpec } from "./vega-spec";

/** The SVG of `spec` at `width` × `height` CSS pixels; null where the chart worker cannot run. */
export async function chartSvgOffPage(spec: VegaLiteSpec, width: number, height: number, locale: string): Promise<string | null> {
  if (!chartWorkerSupported() || width < 1 || height < 1) return null;
  const chart = createWorkerChart();
  try {
    return await chart.render(withLegendColumns(spec, width) as Record<string, unknown>, width, height, locale);
  } finally {
    chart.dispose();
  }
}
