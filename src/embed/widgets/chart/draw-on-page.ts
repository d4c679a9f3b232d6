/**
 * A chart drawn by vega-embed on the page (a canvas): for specs with interactive parameters, and
 * browsers without module workers and OffscreenCanvas.
 */
import { chartRenderScheduler } from "./render-scheduler";
import { fitTemporalTicks, legendColumnsFor, legendEntriesOf, legendLabelLimitFor, type VegaLiteSpec } from "./vega-spec";
import { numberFormatLocale, timeFormatLocale } from "./vega-theme";
import type { VegaViewProps } from "./vega-view-types";

type VegaResult = {
  view: {
    finalize(): void;
    toImageURL(type: string, scale?: number): Promise<string>;
    toSVG(): Promise<string>;
    addEventListener(type: string, h: (e: unknown, item: unknown) => void): void;
    resize(): { runAsync(): Promise<unknown> };
  };
};

/** The spec with as many legend columns (and temporal ticks) as fit the container, so no label falls off the edge. */
export function withLegendColumns(spec: VegaLiteSpec, width: number): VegaLiteSpec {
  if (!width) return spec;
  const config = (spec.config ?? {}) as Record<string, unknown>;
  const legend = (config.legend ?? {}) as Record<string, unknown>;
  // A temporal axis's ticks thinned to the width too (vega-spec.ts, `fitTemporalTicks`).
  return fitTemporalTicks(
    {
      ...spec,
      config: { ...config, legend: { ...legend, columns: legendColumnsFor(width), labelLimit: legendLabelLimitFor(width, legendEntriesOf(spec)) } },
    } as VegaLiteSpec,
    width,
  );
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
      result = (await embed(container, withLegendColumns(spec, container.clientWidth) as never, {
        renderer: "canvas",
        actions: false,
        tooltip: true,
        formatLocale: numberFormatLocale(locale) as never,
        timeFormatLocale: timeFormatLocale(locale) as never,
      })) as unknown as VegaResult;
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
