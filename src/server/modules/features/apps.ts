import type { Router } from "../../http/openapi";
import { registerAppCodeRoutes } from "../apps/app-code";
import { registerAppLibraryRoutes, registerPythonRunRoutes } from "../apps/routes";

/** Dashboard apps and Python reports — the route modules of this feature, registered by ../index.ts. */
export const appsRouteModules: ((app: Router) => void)[] = [registerPythonRunRoutes, registerAppLibraryRoutes, registerAppCodeRoutes];
