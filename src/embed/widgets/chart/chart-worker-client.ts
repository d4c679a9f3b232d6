/**
 * The page's side of the chart worker: one worker for the page, started on first use (or
 * early, by `warmChartWorker`, when a dashboard has charts), and a handle per chart.
 */
import type { ChartWorkerReply, ChartWorkerRequest } from "./chart-worker-protocol";

type Waiting = { resolve: (reply: ChartWorkerReply) => void; reject: (error: Error) => void };

let worker: Worker | null = null;
let broken: Error | null = null;
let nextChartId = 1;
let nextSeq = 1;
const waiting = new Map<number, Waiting>();

/** True where the chart worker can run (a module worker with OffscreenCanvas). */
export function chartWorkerSupported(): boolean {
  return typeof Worker !== "undefined" && typeof OffscreenCanvas !== "undefined";
}

function chartWorker(): Worker {
  if (broken) throw broken;
  if (worker) return worker;
  worker = new Worker(new URL("./chart-worker.ts", import.meta.url), { type: "module", name: "svc-charts" });
  worker.onmessage = (event: MessageEvent<ChartWorkerReply>) => {
    const reply = event.data;
    const entry = waiting.get(reply.seq);
    if (!entry) return;
    waiting.delete(reply.seq);
    if (reply.type === "failed") entry.reject(new Error(reply.message));
    else entry.resolve(reply);
  };
  worker.onerror = (event) => {
    // The worker could not start (or died): every chart waiting hears it, later ones too.
    broken = new Error(event.message || "The chart renderer failed to start");
    for (const entry of waiting.values()) entry.reject(broken);
    waiting.clear();
  };
  return worker;
}

/** Starts the worker (its code downloads and evaluates off the main thread) ahead of the first chart. */
export function warmChartWorker(): void {
  if (chartWorkerSupported()) chartWorker();
}

function send<T extends ChartWorkerReply["type"]>(request: ChartWorkerRequest, expect: T): Promise<Extract<ChartWorkerReply, { type: T }>> {
  return new Promise((resolve, reject) => {
    waiting.set(request.seq, { resolve: resolve as (reply: ChartWorkerReply) => void, reject });
    try {
      chartWorker().postMessage(request);
    } catch (error) {
      waiting.delete(request.seq);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  }).then((reply) => {
    if ((reply as ChartWorkerReply).type !== expect) throw new Error(`unexpected chart worker reply ${(reply as ChartWorkerReply).type}`);
    return reply as Extract<ChartWorkerReply, { type: T }>;
  });
}

export interface WorkerChart {
  /** Draws the spec at this size; resolves with the SVG markup (a later render supersedes it). */
  render(spec: Record<string, unknown>, width: number, height: number, locale: string): Promise<string>;
  /** What is under (x, y), pixels from the chart's top left. */
  pick(x: number, y: number): Promise<{ datum: Record<string, unknown> | null; tooltip: unknown }>;
  /** The last drawing as a PNG at `scale` times its size. */
  png(scale: number): Promise<Blob>;
  dispose(): void;
}

export function createWorkerChart(): WorkerChart {
  const id = nextChartId++;
  return {
    async render(spec, width, height, locale) {
      const reply = await send({ type: "render", id, seq: nextSeq++, spec, width, height, locale }, "rendered");
      return reply.svg;
    },
    async pick(x, y) {
      const reply = await send({ type: "pick", id, seq: nextSeq++, x, y }, "picked");
      return { datum: reply.datum, tooltip: reply.tooltip };
    },
    async png(scale) {
      return (await send({ type: "png", id, seq: nextSeq++, scale }, "png")).blob;
    },
    dispose() {
      if (worker && !broken) worker.postMessage({ type: "dispose", id, seq: nextSeq++ } satisfies ChartWorkerRequest);
    },
  };
}
