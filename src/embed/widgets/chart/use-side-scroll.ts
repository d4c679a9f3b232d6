import { useCallback, useEffect, useState, type RefObject } from "react";

/** Whether a sideways-scrolling element has more to show to its left or right. */
export interface SideScroll {
  left: boolean;
  right: boolean;
}

/**
 * Tracks whether `ref`'s element hides content to either side (a table wider than its widget),
 * so the table can show an edge where more columns wait. Measured on scroll (`measure`), when
 * the element resizes and when `contentWidth` changes.
 */
export function useSideScroll(ref: RefObject<HTMLElement | null>, contentWidth: number): SideScroll & { measure: () => void } {
  const [state, setState] = useState<SideScroll>({ left: false, right: false });
  const measure = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    const left = element.scrollLeft > 1;
    const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
    setState((prev) => (prev.left === left && prev.right === right ? prev : { left, right }));
  }, [ref]);
  useEffect(() => {
    measure();
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, measure, contentWidth]);
  return { ...state, measure };
}
