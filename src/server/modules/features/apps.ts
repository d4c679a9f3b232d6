import type { Router } from "../../http/openapi";

/** Dashboard apps and Python reports — the route modules of this feature, registered by ../index.ts. */
export const appsRouteModules: ((app: Router) => void)[] = [];
