/**
 * Draws a vega-lite spec in steps, with a yield to the event loop between them: vega-lite
 * compile, vega parse, view construction and the first dataflow run each make a task of
 * their own, so one chart no longer makes one 60–90 ms task. It does what vega-embed did for
 * our charts (vega-embed with `actions: false`, `tooltip: true`, canvas): same compile and
 * parse, vega-tooltip handler, `fit-x`/`fit-y` classes from the autosize signal, the
 * `.vega-embed` container style, global format locales, warn-level logger, no hover set
 * (vega-embed leaves hover off for vega-lite specs). This module is only reached through
 * dynamic import, so vega stays out of the start-up bundle.
 */
import * as vega from "vega";
import { compile } from "vega-lite";
import { Handler } from "vega-tooltip";

/** The part of a vega View the chart uses after drawing. */
export type DrawnView = vega.View;

export interface DrawVegaLiteOptions {
  /** d3-format locale definition (global to vega, as with vega-embed). */
  formatLocale?: unknown;
  /** d3-time-format locale definition (global to vega). */
  timeFormatLocale?: unknown;
  /** Lets input and paint in between the steps. */
  yieldToEventLoop: () => Promise<void>;
  /** Stops between steps (the view built so far is finalized). */
  signal?: AbortSignal;
  /** "canvas" on the page; "none" draws no scenegraph (tests without a canvas). */
  renderer?: "canvas" | "svg" | "none";
}

const STYLE_ID = "vega-embed-style";
/** The part of vega-embed's default style that applies without an actions menu. */
const CONTAINER_STYLE = `.vega-embed { position: relative; display: inline-block; box-sizing: border-box; }
.vega-embed.fit-x { display: block; width: 100%; }`;

function ensureContainerStyle(element: HTMLElement): void {
  const root = element.getRootNode() as Document | ShadowRoot;
  const lookup = "getElementById" in root ? root : element.ownerDocument;
  if (lookup.getElementById(STYLE_ID)) return;
  const style = element.ownerDocument.createElement("style");
  style.id = STYLE_ID;
  style.textContent = CONTAINER_STYLE;
  (root instanceof ShadowRoot ? root : element.ownerDocument.head).appendChild(style);
}

class DrawAborted extends Error {}

/**
 * Compiles, parses and runs `spec` into `container` in four tasks. Resolves with the running
 * view, or with null when `signal` aborted on the way (nothing is left behind then).
 */
export async function drawVegaLite(container: HTMLElement, spec: object, options: DrawVegaLiteOptions): Promise<DrawnView | null> {
  const { signal } = options;
  let view: vega.View | null = null;
  const step = async () => {
    await options.yieldToEventLoop();
    if (signal?.aborted) throw new DrawAborted();
  };
  try {
    const logger = vega.logger(vega.Warn);
    const compiled = compile(spec as never, { config: {}, logger }).spec;
    await step();

    if (options.formatLocale) vega.formatLocale(options.formatLocale as never);
    if (options.timeFormatLocale) vega.timeFormatLocale(options.timeFormatLocale as never);
    // The config already went into the vega-lite compile; vega gets none of its own.
    const runtime = vega.parse(compiled, {});
    await step();

    if (typeof document !== "undefined" && container.ownerDocument === document) ensureContainerStyle(container);
    container.classList.add("vega-embed");
    container.innerHTML = "";
    view = new vega.View(runtime, { loader: vega.loader(), logger, renderer: options.renderer ?? "canvas" });
    view.addSignalListener("autosize", (_name, autosize: { type?: string }) => {
      const type = autosize?.type;
      container.classList.toggle("fit-x", type === "fit-x" || type === "fit");
      container.classList.toggle("fit-y", type === "fit-y" || type === "fit");
    });
    view.tooltip(new Handler().call);
    view.initialize(container);
    await step();

    await view.runAsync();
    if (signal?.aborted) throw new DrawAborted();
    return view;
  } catch (error) {
    view?.finalize();
    if (error instanceof DrawAborted) return null;
    throw error;
  }
}
