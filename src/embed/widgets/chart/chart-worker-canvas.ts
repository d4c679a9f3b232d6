/**
 * In the chart worker, before vega loads: vega-canvas asks `document.createElement("canvas")`
 * for its text measurement and headless canvas renders; a worker has no document but has
 * OffscreenCanvas, which does both. Nothing else of `document` exists here.
 */
/// <reference lib="webworker" />
const holder = globalThis as { document?: unknown };
if (typeof holder.document === "undefined" && typeof OffscreenCanvas !== "undefined") {
  holder.document = {
    createElement: (tag: string) => (tag === "canvas" ? new OffscreenCanvas(1, 1) : null),
  };
}
export {};
