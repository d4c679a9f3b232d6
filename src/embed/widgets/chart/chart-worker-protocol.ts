/** Messages between the page and the chart worker (src/embed/widgets/chart/chart-worker.ts). */

export interface RenderRequest {
  type: "render";
  /** The chart's id on this page: a later render of the same id replaces its view. */
  id: number;
  /** Which request of this page it is: the reply carries it back. */
  seq: number;
  /** A Vega-Lite spec with its data inline. */
  spec: Record<string, unknown>;
  width: number;
  height: number;
  /** The viewer's locale: the worker builds vega's number and time formats for it (vega-theme.ts). */
  locale: string;
}

export type ChartWorkerRequest =
  | RenderRequest
  | { type: "pick"; id: number; seq: number; x: number; y: number }
  | { type: "png"; id: number; seq: number; scale: number }
  | { type: "dispose"; id: number; seq: number };

export type ChartWorkerReply =
  | { type: "rendered"; id: number; seq: number; svg: string }
  | { type: "picked"; id: number; seq: number; datum: Record<string, unknown> | null; tooltip: unknown }
  | { type: "png"; id: number; seq: number; blob: Blob }
  | { type: "failed"; id: number; seq: number; message: string };
