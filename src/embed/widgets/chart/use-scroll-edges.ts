import { useCallback, useEffect, useState, type RefObject } from "react";

/** Whether a scrolling element has more to show before (left, above) or after (right, below) what is in view. */
export interface ScrollEdges {
  before: boolean;
  after: boolean;
}

/**
 * Tracks whether `ref`'s element hides content along `axis` (a table wider than its widget, an
 * answer taller than its card), so it can show an edge where more waits. Measured on scroll
 * (`measure`), when the element resizes and when `contentSize` changes.
 */
export function useScrollEdges(ref: RefObject<HTMLElement | null>, axis: "x" | "y", contentSize: unknown): ScrollEdges & { measure: () => void } {
  const [state, setState] = useState<ScrollEdges>({ before: false, after: false });
  const measure = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    const [offset, view, total] =
      axis === "x" ? [element.scrollLeft, element.clientWidth, element.scrollWidth] : [element.scrollTop, element.clientHeight, element.scrollHeight];
    const before = offset > 1;
    const after = offset + view < total - 1;
    setState((prev) => (prev.before === before && prev.after === after ? prev : { before, after }));
  }, [ref, axis]);
  useEffect(() => {
    measure();
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, measure, contentSize]);
  return { ...state, measure };
}
