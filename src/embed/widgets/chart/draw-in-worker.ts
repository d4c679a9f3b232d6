/** A chart drawn in the chart worker (chart-worker.ts) as SVG, kept in step with size, pointer and clicks. */
import DOMPurify from "dompurify";
import { tooltipOf, type TooltipState } from "./chart-tooltip";
import { createWorkerChart } from "./chart-worker-client";
import { withLegendColumns } from "./draw-on-page";
import type { VegaLiteSpec } from "./vega-spec";
import type { VegaViewProps } from "./vega-view-types";

/**
 * The sanitiser of chart drawings: its own DOMPurify instance with the SVG profile set once
 * (a per-call configuration is parsed on every call, which costs more than the sanitising).
 */
let svgPurifier: ReturnType<typeof DOMPurify> | null = null;
function sanitizeSvg(svg: string): DocumentFragment {
  svgPurifier ??= DOMPurify(window);
  return svgPurifier.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: true }, RETURN_DOM_FRAGMENT: true });
}

/** Draws in the chart worker and keeps the drawing in step with size, pointer and clicks; returns the clean-up. */
export function drawInWorker(
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
  let drawing = "";

  // The widget hears once: after the first drawing, or the first failure before any drawing.
  let reported = false;
  const report = (error?: Error) => {
    if (reported || disposed) return;
    reported = true;
    if (!error && callbacks.current.handleRef)
      callbacks.current.handleRef.current = { toPngUrl: async () => URL.createObjectURL(await chart.png(2)), toSvg: async () => drawing };
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
    drawing = svg;
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
