/**
 * Content size reporting for `svc:event:resize`. The size measured is the content element's
 * own border box, never the viewport or document height: when the host sets the iframe height
 * from it, the element does not change, so nothing is reported again and the two cannot feed
 * each other. (The content element must size to its content: no `height: 100%` or
 * `min-height: 100vh` on it.)
 */

export interface ContentSize {
  height: number;
  width: number;
}

export interface MeasurableElement {
  getBoundingClientRect(): { height: number; width: number };
}

type ResizeObserverLike = { observe(target: never): void; disconnect(): void };
export type ResizeObserverConstructor = new (callback: () => void) => ResizeObserverLike;

/** Options of `observeContentSize`. */
export interface ContentSizeOptions {
  /** Quiet time after the last change before reporting; default 100 ms. */
  debounceMs?: number;
  /** Smallest change in either dimension that is reported; default 1 px. */
  thresholdPx?: number;
}

export function measureContentSize(element: MeasurableElement): ContentSize {
  const rect = element.getBoundingClientRect();
  // Rounding up keeps sub-pixel layout jitter from producing a stream of reports.
  return { height: Math.ceil(rect.height), width: Math.ceil(rect.width) };
}

/**
 * Observes `element` and calls `report` with its size, debounced, only when it changed by at
 * least the threshold since the last report. Returns a function that stops observing.
 */
export function observeElementSize(
  element: MeasurableElement,
  report: (size: ContentSize) => void,
  ResizeObserverImpl: ResizeObserverConstructor | undefined,
  options: ContentSizeOptions = {},
): () => void {
  const debounceMs = options.debounceMs ?? 100;
  const threshold = options.thresholdPx ?? 1;
  let last: ContentSize | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    timer = undefined;
    const size = measureContentSize(element);
    if (last && Math.abs(size.height - last.height) < threshold && Math.abs(size.width - last.width) < threshold) return;
    last = size;
    report(size);
  };
  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };

  if (!ResizeObserverImpl) {
    // Without ResizeObserver there is nothing to follow; report the size once.
    flush();
    return () => {};
  }
  const observer = new ResizeObserverImpl(schedule);
  observer.observe(element as never);
  schedule();
  return () => {
    observer.disconnect();
    if (timer !== undefined) clearTimeout(timer);
  };
}
