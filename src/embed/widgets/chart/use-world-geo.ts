/** The world's countries for map widgets, loaded (once per page) only when a map asks for them. */
import { useEffect, useState } from "react";
import type { WorldGeo } from "./world-geo";

export type WorldGeoState = { status: "idle" | "loading" | "failed" } | { status: "ready"; geo: WorldGeo };

export function useWorldGeo(needed: boolean): WorldGeoState {
  const [state, setState] = useState<WorldGeoState>({ status: needed ? "loading" : "idle" });
  useEffect(() => {
    if (!needed) return;
    let live = true;
    import("./world-geo")
      .then(({ loadWorldGeo }) => loadWorldGeo())
      .then((geo) => live && setState({ status: "ready", geo }))
      .catch(() => live && setState({ status: "failed" }));
    return () => {
      live = false;
    };
  }, [needed]);
  return state;
}
