/**
 * Renders a Vega-Lite spec. Charts are drawn by the chart worker (chart-worker.ts) as SVG:
 * vega's code and each chart's dataflow stay off the page's main thread, which only inserts
 * the (sanitised) drawing. What is under the pointer is asked of the worker, for the tooltip
 * and for drilldown clicks. A spec with interactive parameters (selections), or a browser
 * without module workers and OffscreenCanvas, is drawn on the page by vega-embed instead.
 * Charts draw when they come near the viewport; a text alternative describes each chart.
 */
import { useEffect, useRef, useState } from "react";
import { useEmbedStore } from "../../state/use-embed-store";
import { ChartTooltip, type TooltipState } from "./chart-tooltip";
import { chartWorkerSupported } from "./chart-worker-client";
import { drawInWorker } from "./draw-in-worker";
import { drawOnPage } from "./draw-on-page";
import { useNearViewport } from "./use-near-viewport";
import type { VegaLiteSpec } from "./vega-spec";
import type { VegaViewProps } from "./vega-view-types";
import "../../ui/visually-hidden.css";
import "./vega-view.css";

export type { ChartHandle, VegaViewProps } from "./vega-view-types";

/** Specs whose parameters react to the pointer need vega's live view on the page. */
export function needsLiveView(spec: VegaLiteSpec): boolean {
  const hasParams = (node: unknown): boolean => {
    if (!node || typeof node !== "object") return false;
    const n = node as Record<string, unknown>;
    if (Array.isArray(n.params) && n.params.length > 0) return true;
    return ["layer", "concat", "hconcat", "vconcat"].some((key) => Array.isArray(n[key]) && (n[key] as unknown[]).some(hasParams)) || hasParams(n.spec);
  };
  return hasParams(spec);
}

export function VegaView(props: VegaViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const callbacks = useRef(props);
  callbacks.current = props;
  const { near, offscreen } = useNearViewport(containerRef, () => callbacks.current.onDeferred?.());
  const locale = useEmbedStore((s) => s.locale);
  const [tooltip, setTooltip] = useState<TooltipState | null>(null);

  // New data for a chart that is still off screen: it is deferred again (it draws when
  // scrolled to), or the widget would wait for a drawing that has not been asked for.
  useEffect(() => {
    if (!near && offscreen.current) callbacks.current.onDeferred?.();
  }, [near, offscreen, props.spec]);

  useEffect(() => {
    const container = containerRef.current;
    if (!near || !container) return;
    if (needsLiveView(props.spec) || !chartWorkerSupported()) return drawOnPage(container, props.spec, locale, callbacks);
    return drawInWorker(container, props.spec, locale, callbacks, setTooltip);
  }, [near, props.spec, locale]);

  return (
    <figure className="svc-chart" aria-label={props.description}>
      <div className="svc-chart-canvas" ref={containerRef} role="img" aria-label={props.description} />
      <figcaption className="svc-visually-hidden">{props.description}</figcaption>
      {tooltip ? <ChartTooltip tooltip={tooltip} /> : null}
    </figure>
  );
}
