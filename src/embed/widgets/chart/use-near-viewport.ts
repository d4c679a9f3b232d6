import { useEffect, useRef, useState } from "react";

/**
 * True once the element has come within a screen of the viewport. `offscreen.current` is true
 * once the observer has seen it away from the viewport (and it has not come near since).
 */
export function useNearViewport(ref: React.RefObject<HTMLElement | null>, onDeferred: () => void): { near: boolean; offscreen: React.RefObject<boolean> } {
  const [near, setNear] = useState(false);
  const offscreen = useRef(false);
  const deferredRef = useRef(onDeferred);
  deferredRef.current = onDeferred;
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    if (typeof IntersectionObserver === "undefined") {
      setNear(true);
      return;
    }
    let first = true;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          offscreen.current = false;
          setNear(true);
          observer.disconnect();
        } else if (first) {
          offscreen.current = true;
          deferredRef.current();
        }
        first = false;
      },
      { rootMargin: "400px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, near]);
  return { near, offscreen };
}
