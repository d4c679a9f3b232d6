/**
 * Vega off the main thread: this dedicated worker compiles each chart's Vega-Lite spec, runs
 * its dataflow and writes it as SVG, so neither vega's ~0.9 MB of code nor any chart's render
 * is a task on the page's thread. It keeps each chart's view to answer what is under the
 * pointer (tooltips, drilldown clicks) and to draw a PNG for export. Protocol:
 * src/embed/widgets/chart/chart-worker-protocol.ts.
 */
/// <reference lib="webworker" />
// First: vega measures text on a canvas it asks `document` for; a worker has OffscreenCanvas.
import "./chart-worker-canvas";
import * as vega from "vega";
import { compile } from "vega-lite";
import type { ChartWorkerReply, ChartWorkerRequest, RenderRequest } from "./chart-worker-protocol";
import { numberFormatLocale, timeFormatLocale } from "./vega-theme";

type View = vega.View & { origin(): [number, number] };
type SceneItem = { datum?: unknown; tooltip?: unknown; marktype?: string; items?: unknown[] };
type Picker = { pick(scene: unknown, x: number, y: number, gx: number, gy: number): SceneItem | null };

// This file runs as a dedicated worker: its `self` is the worker's scope, not a window.
declare const self: DedicatedWorkerGlobalScope;
const scope = self;
const views = new Map<number, View>();
const marks = (vega as unknown as { Marks: Record<string, { pick: (this: Picker, ...args: unknown[]) => SceneItem | null }> }).Marks;
let pickContext: (OffscreenCanvasRenderingContext2D & { pixelRatio?: number }) | null = null;

function reply(message: ChartWorkerReply, transfer: Transferable[] = []) {
  scope.postMessage(message, transfer);
}

/** The spec at this size: "container" sizes become the chart's pixel size (no DOM to measure here). */
function sized(spec: Record<string, unknown>, width: number, height: number): Record<string, unknown> {
  return {
    ...spec,
    ...(spec.width === "container" || spec.width === undefined ? { width } : {}),
    ...(spec.height === "container" || spec.height === undefined ? { height } : {}),
  };
}

async function render(request: RenderRequest) {
  views.get(request.id)?.finalize();
  views.delete(request.id);
  // Locales are global in vega: set for each render, the chart's own (built here, once per locale:
  // the Intl formatters they take are costly, and this is not the page's thread).
  vega.formatLocale(numberFormatLocale(request.locale) as never);
  vega.timeFormatLocale(timeFormatLocale(request.locale) as never);
  const compiled = compile(sized(request.spec, request.width, request.height) as never).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" }) as View;
  await view.runAsync();
  const svg = await view.toSVG();
  views.set(request.id, view);
  reply({ type: "rendered", id: request.id, seq: request.seq, svg });
}

/** What the view has at (x, y), pixels from the chart's top left: its datum and tooltip, as plain data. */
function pick(id: number, x: number, y: number): { datum: Record<string, unknown> | null; tooltip: unknown } {
  const view = views.get(id);
  if (!view) return { datum: null, tooltip: null };
  pickContext ??= new OffscreenCanvas(1, 1).getContext("2d");
  if (!pickContext) return { datum: null, tooltip: null };
  // Where the scene starts in the drawing: the padding, then the autosize offset (as vega's own handler).
  const padding = view.padding() as { left: number; top: number };
  const [ax, ay] = view.origin();
  const ox = padding.left + ax;
  const oy = padding.top + ay;
  pickContext.pixelRatio = 1;
  pickContext.setTransform(1, 0, 0, 1, ox, oy);
  const picker: Picker = {
    pick(scene, px, py, gx, gy) {
      const mark = marks[(scene as SceneItem).marktype!];
      return mark ? mark.pick.call(picker, pickContext, scene, px, py, gx, gy) : null;
    },
  };
  const root = (view.scenegraph() as unknown as { root: unknown }).root;
  const item = picker.pick(root, x, y, x - ox, y - oy);
  const datum = item?.datum && typeof item.datum === "object" ? plain(item.datum as Record<string, unknown>) : null;
  return { datum, tooltip: item?.tooltip === undefined ? null : plainValue(item.tooltip) };
}

/** A datum without vega's own fields and functions, so it can cross to the page. */
function plain(datum: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(datum)) {
    if (key.startsWith("Symbol(") || typeof value === "function") continue;
    out[key] = plainValue(value);
  }
  return out;
}

function plainValue(value: unknown): unknown {
  if (value === null || typeof value !== "object") return typeof value === "function" ? null : value;
  if (value instanceof Date) return value.getTime();
  if (Array.isArray(value)) return value.map(plainValue);
  return plain(value as Record<string, unknown>);
}

async function png(id: number, scale: number) {
  const view = views.get(id);
  if (!view) throw new Error("the chart is not drawn");
  const canvas = (await view.toCanvas(scale)) as unknown as OffscreenCanvas;
  return canvas.convertToBlob({ type: "image/png" });
}

scope.onmessage = async (event: MessageEvent<ChartWorkerRequest>) => {
  const request = event.data;
  try {
    switch (request.type) {
      case "render":
        await render(request);
        return;
      case "pick":
        reply({ type: "picked", id: request.id, seq: request.seq, ...pick(request.id, request.x, request.y) });
        return;
      case "png":
        reply({ type: "png", id: request.id, seq: request.seq, blob: await png(request.id, request.scale) });
        return;
      case "dispose":
        views.get(request.id)?.finalize();
        views.delete(request.id);
        return;
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reply({ type: "failed", id: request.id, seq: request.seq, message });
  }
};
