/**
 * Renders a Vega-Lite spec. Charts are drawn by the chart worker (chart-worker.ts) as SVG:
 * vega's code and each chart's dataflow stay off the page's main thread, which only inserts
 * the (sanitised) drawing. What is under the pointer is asked of the worker, for the tooltip
 * and for drilldown clicks. A spec with interactive parameters (selections), or a browser
 * without module workers and OffscreenCanvas, is drawn on the page by vega-embed instead.
 * Charts draw when they come near the viewport; a text alternative describes each chart.
 */
import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import DOMPurify from "dompurify";
import { useEmbedStore } from "../../state/use-embed-store";
import { chartRenderScheduler } from "./render-scheduler";
import { chartWorkerSupported, createWorkerChart } from "./chart-worker-client";
import { numberFormatLocale, timeFormatLocale } from "./vega-theme";
import { legendColumnsFor, legendEntriesOf, legendLabelLimitFor, type VegaLiteSpec } from "./vega-spec";
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
 * The sanitiser of chart drawings: its own DOMPurify instance with the SVG profile set once
 * (a per-call configuration is parsed on every call, which costs more than the sanitising).
 */
let svgPurifier: ReturnType<typeof DOMPurify> | null = null;
function sanitizeSvg(svg: string): DocumentFragment {
  if (!svgPurifier) {
    svgPurifier = DOMPurify(window);
    svgPurifier.setConfig({ USE_PROFILES: { svg: true, svgFilters: true }, RETURN_DOM_FRAGMENT: true });
  }
  return svgPurifier.sanitize(svg) as unknown as DocumentFragment;
}

/** A tooltip at a page position: a title/value table (vega's object tooltips) or a line of text. */
interface TooltipState {
  x: number;
  y: number;
  rows: [string, string][] | null;
  text: string | null;
}

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
  return {
    ...spec,
    config: { ...config, legend: { ...legend, columns: legendColumnsFor(width), labelLimit: legendLabelLimitFor(width, legendEntriesOf(spec)) } },
  } as VegaLiteSpec;
}

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

/** vega's tooltip value as table rows or text (objects list their fields; other values are text). */
function tooltipOf(value: unknown, x: number, y: number): TooltipState | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "object" && !Array.isArray(value)) {
    const rows = Object.entries(value as Record<string, unknown>).map(([key, v]) => [key, v === null || v === undefined ? "" : String(v)] as [string, string]);
    return rows.length ? { x, y, rows, text: null } : null;
  }
  return { x, y, rows: null, text: Array.isArray(value) ? value.join(", ") : String(value) };
}

/** The chart's tooltip, in the page's top layer (a grid cell's transform would misplace a fixed element inside it). */
function ChartTooltip(props: { tooltip: TooltipState }) {
  const ref = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null);
  const { x, y } = props.tooltip;
  useEffect(() => {
    const box = ref.current?.getBoundingClientRect();
    if (!box) return;
    const left = x + 14 + box.width > window.innerWidth ? Math.max(4, x - 14 - box.width) : x + 14;
    const top = y + 14 + box.height > window.innerHeight ? Math.max(4, y - 14 - box.height) : y + 14;
    setPlace({ left, top });
  }, [x, y, props.tooltip]);
  return createPortal(
    <div
      ref={ref}
      className="svc-chart-tooltip"
      role="tooltip"
      data-testid="chart-tooltip"
      style={{ left: place?.left ?? x + 14, top: place?.top ?? y + 14, visibility: place ? "visible" : "hidden" }}
    >
      {props.tooltip.rows ? (
        <table>
          <tbody>
            {props.tooltip.rows.map(([key, value]) => (
              <tr key={key}>
                <td className="key">{key}</td>
                <td className="value">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        props.tooltip.text
      )}
    </div>,
    document.body,
  );
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

/** Draws in the chart worker and keeps the drawing in step with size, pointer and clicks; returns the clean-up. */
function drawInWorker(
  container: HTMLDivElement,
  spec: VegaLiteSpec,
  locale: string,
  callbacks: { current: VegaViewProps },
  setTooltip: (tooltip: TooltipState | null) => void,
): () => void {
  const chart = createWorkerChart();
  let disposed = false;
  let drawn = false;
  let size = "";
  let latest = 0;

  // The widget hears once: after the first drawing, or the first failure before any drawing.
  let reported = false;
  const report = (error?: Error) => {
    if (reported || disposed) return;
    reported = true;
    if (!error && callbacks.current.handleRef) callbacks.current.handleRef.current = { toPngUrl: async () => URL.createObjectURL(await chart.png(2)) };
    callbacks.current.onRendered?.(error);
  };

  // Draws at the container's current size; a later draw supersedes one still under way.
  const draw = async () => {
    const width = container.clientWidth;
    const height = container.clientHeight;
    size = `${width}x${height}`;
    // Nothing to draw into (a hidden tab, a collapsed card): deferred like a chart off screen;
    // the size observer draws when the container has a size.
    if (!width || !height) {
      if (!reported) callbacks.current.onDeferred?.();
      return;
    }
    const mine = ++latest;
    let svg: string;
    try {
      svg = await chart.render(withLegendColumns(spec, width) as Record<string, unknown>, width, height, locale);
    } catch (error) {
      if (mine === latest) report(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (disposed || mine !== latest) return;
    // The markup is vega's own (text escaped), sanitised all the same before it joins the page.
    container.replaceChildren(sanitizeSvg(svg));
    drawn = true;
    report();
  };
  void draw();

  // A new size draws again (once per frame at most), also while the first drawing is on its way.
  let frame = 0;
  const resizeObserver =
    typeof ResizeObserver === "undefined"
      ? null
      : new ResizeObserver(() => {
          if (`${container.clientWidth}x${container.clientHeight}` === size || frame) return;
          frame = requestAnimationFrame(() => {
            frame = 0;
            void draw();
          });
        });
  resizeObserver?.observe(container);

  // The pointer: one question to the worker at a time, the latest position wins.
  let asking = false;
  let next: { x: number; y: number; clientX: number; clientY: number } | null = null;
  const ask = async () => {
    if (asking || !next || !drawn) return;
    asking = true;
    const at = next;
    next = null;
    try {
      const { datum, tooltip } = await chart.pick(at.x, at.y);
      if (disposed) return;
      container.style.cursor = datum && callbacks.current.onDatumClick ? "pointer" : "";
      setTooltip(tooltipOf(tooltip, at.clientX, at.clientY));
    } catch {
      setTooltip(null);
    } finally {
      asking = false;
      if (next && !disposed) void ask();
    }
  };
  const position = (event: PointerEvent | MouseEvent) => {
    const box = container.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top, clientX: event.clientX, clientY: event.clientY };
  };
  const onMove = (event: PointerEvent) => {
    next = position(event);
    void ask();
  };
  const onLeave = () => {
    next = null;
    setTooltip(null);
    container.style.cursor = "";
  };
  const onClick = (event: MouseEvent) => {
    if (!drawn || !callbacks.current.onDatumClick) return;
    const at = position(event);
    void chart.pick(at.x, at.y).then(
      ({ datum }) => {
        if (datum && !disposed) callbacks.current.onDatumClick?.(datum);
      },
      () => undefined,
    );
  };
  container.addEventListener("pointermove", onMove);
  container.addEventListener("pointerleave", onLeave);
  container.addEventListener("click", onClick);

  return () => {
    disposed = true;
    if (frame) cancelAnimationFrame(frame);
    resizeObserver?.disconnect();
    container.removeEventListener("pointermove", onMove);
    container.removeEventListener("pointerleave", onLeave);
    container.removeEventListener("click", onClick);
    setTooltip(null);
    chart.dispose();
    if (callbacks.current.handleRef) callbacks.current.handleRef.current = null;
  };
}

/** Draws with vega-embed on the page (canvas), one chart at a time through the shared scheduler; returns the clean-up. */
function drawOnPage(container: HTMLDivElement, spec: VegaLiteSpec, locale: string, callbacks: { current: VegaViewProps }): () => void {
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
}
