/**
 * A chart drawn by vega-embed on the page (a canvas): for specs with interactive parameters, and
 * browsers without module workers and OffscreenCanvas.
 */
import { chartRenderScheduler } from "./render-scheduler";
import { fitTemporalTicks, legendColumnsFor, legendEntriesOf, legendLabelLimitFor, type VegaLiteSpec } from "./vega-spec";
import { numberFormatLocale, timeFormatLocale } from "./vega-theme";
import type { VegaViewProps } from "./vega-view-types";
import type { Result as VegaResult } from "vega-embed";

/** The spec with as many legend columns (and temporal ticks) as fit the container, so no label falls off the edge. */
export function withLegendColumns(spec: VegaLiteSpec, width: number): VegaLiteSpec {
  if (!width) return spec;
  const config = (spec.config ?? {}) as Record<string, unknown>;
  const legend = (config.legend ?? {}) as Record<string, unknown>;
  // A temporal axis's ticks thinned to the width too (vega-spec.ts, `fitTemporalTicks`).
  return fitTemporalTicks(
    {
      ...fitSizeLegends(spec, width),
      config: { ...config, legend: { ...legend, columns: legendColumnsFor(width), labelLimit: legendLabelLimitFor(width, legendEntriesOf(spec)) } },
    } as VegaLiteSpec,
    width,
  );
}

/** Width of one entry of a size legend: its largest circle and a compact label ("600K $"). */
const SIZE_LEGEND_ENTRY_PX = 85;

/**
 * A size legend that names its own columns (a map's four sizes in a row) keeps only as many as
 * the width holds (a 320 px phone: two rows of two), in the spec and each of its layers.
 */
export function fitSizeLegends(spec: VegaLiteSpec, width: number): VegaLiteSpec {
  const most = Math.max(1, Math.floor((width - 8) / SIZE_LEGEND_ENTRY_PX));
  const fit = (view: VegaLiteSpec): VegaLiteSpec => {
    const encoding = view.encoding as Record<string, unknown> | undefined;
    const size = encoding?.size as { legend?: { columns?: unknown } } | undefined;
    let out = view;
    if (size?.legend && typeof size.legend.columns === "number" && size.legend.columns > most)
      out = { ...view, encoding: { ...encoding, size: { ...size, legend: { ...size.legend, columns: most } } } } as VegaLiteSpec;
    if (Array.isArray(view.layer)) out = { ...out, layer: view.layer.map((l) => (l && typeof l === "object" ? fit(l as VegaLiteSpec) : l)) } as VegaLiteSpec;
    return out;
  };
  return fit(spec);
}

/** Draws with vega-embed on the page (canvas), one chart at a time through the shared scheduler; returns the clean-up. */
export function drawOnPage(container: HTMLDivElement, spec: VegaLiteSpec, locale: string, callbacks: { current: VegaViewProps }): () => void {
  const controller = new AbortController();
  let result: VegaResult | null = null;
  let resizeObserver: ResizeObserver | null = null;
  chartRenderScheduler
    .schedule(async () => {
      const { default: embed } = await import("vega-embed");
      if (controller.signal.aborted) return;
      result = await embed(container, withLegendColumns(spec, container.clientWidth) as never, {
        renderer: "canvas",
        actions: false,
        tooltip: true,
        formatLocale: numberFormatLocale(locale) as never,
        timeFormatLocale: timeFormatLocale(locale) as never,
      });
      if (controller.signal.aborted) {
        result.view.finalize();
        return;
      }
      const view = result.view;
      view.addEventListener("click", (_event, item) => {
        const datum = (item as { datum?: Record<string, unknown> } | null)?.datum;
        if (datum) callbacks.current.onDatumClick?.(datum);
      });
      if (callbacks.current.handleRef) callbacks.current.handleRef.current = { toPngUrl: () => view.toImageURL("png", 2), toSvg: () => view.toSVG() };
      if (typeof ResizeObserver !== "undefined") {
        let last = container.clientWidth + "x" + container.clientHeight;
        resizeObserver = new ResizeObserver(() => {
          const size = container.clientWidth + "x" + container.clientHeight;
          if (size === last) return;
          last = size;
          void view.resize().runAsync();
        });
        resizeObserver.observe(container);
      }
      callbacks.current.onRendered?.();
    }, controller.signal)
    .catch((error: unknown) => callbacks.current.onRendered?.(error instanceof Error ? error : new Error(String(error))));
  return () => {
    controller.abort();
    resizeObserver?.disconnect();
    (result as VegaResult | null)?.view.finalize();
    if (callbacks.current.handleRef) callbacks.current.handleRef.current = null;
  };
}
