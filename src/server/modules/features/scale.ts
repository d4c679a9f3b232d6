import type { Router } from "../../http/openapi";
import { registerClusterRoutes } from "../cluster/routes";

/** Scale-out: node registry and cross-node state — the route modules of this feature, registered by ../index.ts. */
export const scaleRouteModules: ((app: Router) => void)[] = [registerClusterRoutes];
