/**
 * Chart renders run one at a time with a yield to the event loop between them, so 48
 * charts never make one long task: input and paint get in between every chart.
 */

export type RenderTask = () => Promise<void> | void;

export interface RenderScheduler {
  /** Queues a render; resolves when it ran. A cancelled task that has not started is skipped. */
  schedule(task: RenderTask, signal?: AbortSignal): Promise<void>;
  readonly pending: number;
}

const yieldToEventLoop = () =>
  new Promise<void>((resolve) => {
    const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
    if (scheduler?.yield) scheduler.yield().then(resolve, resolve);
    else setTimeout(resolve, 0);
  });

export function createRenderScheduler(yieldFn: () => Promise<void> = yieldToEventLoop): RenderScheduler {
  const queue: { task: RenderTask; signal?: AbortSignal; resolve: () => void; reject: (e: unknown) => void }[] = [];
  let running = false;

  async function drain() {
    if (running) return;
    running = true;
    try {
      while (queue.length > 0) {
        const next = queue.shift()!;
        if (next.signal?.aborted) {
          next.resolve();
          continue;
        }
        try {
          await next.task();
          next.resolve();
        } catch (error) {
          next.reject(error);
        }
        await yieldFn();
      }
    } finally {
      running = false;
    }
  }

  return {
    schedule(task, signal) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ task, signal, resolve, reject });
        void drain();
      });
    },
    get pending() {
      return queue.length;
    },
  };
}

/** The page's scheduler, shared by every chart. */
export const chartRenderScheduler = createRenderScheduler();
