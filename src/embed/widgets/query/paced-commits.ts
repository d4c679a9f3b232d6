/**
 * Widget results committed a few at a time. When many widgets' answers arrive together (a
 * dashboard's first batch), rendering them in one commit would be one long task; instead each
 * result is committed on its own (`flushSync`), as many as fit a frame's budget, and the page
 * gets the main thread back (input, paint) between the slices.
 */
import { flushSync } from "react-dom";

/** Main-thread time one slice may use, ms (under the 50 ms of a long task, with room for paint). */
export const SLICE_BUDGET_MS = 12;

export interface CommitPacer {
  /** Runs `update` (a React state update) in a later slice, committed on its own. */
  pace(update: () => void): void;
  readonly pending: number;
}

/** `yieldTo` hands the thread back and calls the next slice; `now` reads the clock (both for tests). */
export function createCommitPacer(
  yieldTo: (next: () => void) => void = (next) => setTimeout(next, 0),
  now: () => number = () => performance.now(),
  commit: (update: () => void) => void = flushSync,
): CommitPacer {
  const queue: (() => void)[] = [];
  let scheduled = false;
  const slice = () => {
    const start = now();
    // At least one update a slice, however long it takes.
    do {
      const update = queue.shift()!;
      try {
        commit(update);
      } catch (error) {
        // One widget's failure is its own (its error boundary): the others still commit.
        setTimeout(() => {
          throw error;
        });
      }
    } while (queue.length > 0 && now() - start < SLICE_BUDGET_MS);
    if (queue.length > 0) yieldTo(slice);
    else scheduled = false;
  };
  return {
    pace(update) {
      queue.push(update);
      if (scheduled) return;
      scheduled = true;
      yieldTo(slice);
    },
    get pending() {
      return queue.length;
    },
  };
}

/** The page's pacer, shared by every widget. */
export const widgetCommitPacer = createCommitPacer();
