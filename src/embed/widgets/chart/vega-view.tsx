/**
 * Renders a vega-lite spec with vega-embed (canvas renderer). vega-embed is imported only
 * when the chart comes near the viewport, and renders go through the shared scheduler so
 * many charts never make one long task. A text alternative describes the chart for screen
 * readers; clicks on marks report the datum for drilldown.
 */
import { useEffect, useRef, useState } from "react";
import { useEmbedStore } from "../../state/use-embed-store";
import { chartRenderScheduler } from "./render-scheduler";
import { numberFormatLocale, timeFormatLocale } from "./vega-theme";
import { legendColumnsFor, type VegaLiteSpec } from "./vega-spec";
import "../../ui/visually-hidden.css";
import "./vega-view.css";

export interface ChartHandle {
  toPngUrl(): Promise<string>;
}

export interface VegaViewProps {
  spec: VegaLiteSpec;
  /** Text alternative of the chart. */
  description: string;
  onDatumClick?: (datum: Record<string, unknown>) => void;
  /** Called after each completed render, and with an error when rendering failed. */
  onRendered?: (error?: Error) => void;
  /** Called when the chart is off screen at load: it draws later, when scrolled to. */
  onDeferred?: () => void;
  /** Receives the handle used by the PNG export. */
  handleRef?: { current: ChartHandle | null };
}

type VegaResult = {
  view: {
    finalize(): void;
    toImageURL(type: string, scale?: number): Promise<string>;
    addEventListener(type: string, h: (e: unknown, item: unknown) => void): void;
    resize(): { runAsync(): Promise<unknown> };
  };
};

/**
 * True once the element has come within a screen of the viewport. `offscreen.current` is true
 * once the observer has seen it away from the viewport (and it has not come near since).
 */
function useNearViewport(ref: React.RefObject<HTMLElement | null>, onDeferred: () => void): { near: boolean; offscreen: React.RefObject<boolean> } {
  const [near, setNear] = useState(false);
  const offscreen = useRef(false);
  const deferredRef = useRef(onDeferred);
  deferredRef.current = onDeferred;
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    if (typeof IntersectionObserver === "undefined") {
      setNear(true);
      return;
    }
    let first = true;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          offscreen.current = false;
          setNear(true);
          observer.disconnect();
        } else if (first) {
          offscreen.current = true;
          deferredRef.current();
        }
        first = false;
      },
      { rootMargin: "400px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, near]);
  return { near, offscreen };
}

/** The spec with as many legend columns as fit the container, so no label falls off the edge. */
function withLegendColumns(spec: VegaLiteSpec, width: number): VegaLiteSpec {
  if (!width) return spec;
  const config = (spec.config ?? {}) as Record<string, unknown>;
  const legend = (config.legend ?? {}) as Record<string, unknown>;
  return { ...spec, config: { ...config, legend: { ...legend, columns: legendColumnsFor(width) } } } as VegaLiteSpec;
}

export function VegaView(props: VegaViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const callbacks = useRef(props);
  callbacks.current = props;
  const { near, offscreen } = useNearViewport(containerRef, () => callbacks.current.onDeferred?.());
  const locale = useEmbedStore((s) => s.locale);

  // New data for a chart that is still off screen: it is deferred again (it draws when
  // scrolled to), or the widget would wait for a drawing that has not been asked for.
  useEffect(() => {
    if (!near && offscreen.current) callbacks.current.onDeferred?.();
  }, [near, offscreen, props.spec]);

  useEffect(() => {
    const container = containerRef.current;
    if (!near || !container) return;
    const controller = new AbortController();
    let result: VegaResult | null = null;
    let resizeObserver: ResizeObserver | null = null;
    chartRenderScheduler
      .schedule(async () => {
        const { default: embed } = await import("vega-embed");
        if (controller.signal.aborted) return;
        result = (await embed(container, withLegendColumns(props.spec, container.clientWidth) as never, {
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
        if (callbacks.current.handleRef) callbacks.current.handleRef.current = { toPngUrl: () => view.toImageURL("png", 2) };
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
  }, [near, props.spec, locale]);

  return (
    <figure className="svc-chart" aria-label={props.description}>
      <div className="svc-chart-canvas" ref={containerRef} role="img" aria-label={props.description} />
      <figcaption className="svc-visually-hidden">{props.description}</figcaption>
    </figure>
  );
}
