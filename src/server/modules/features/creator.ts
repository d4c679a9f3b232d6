import type { Router } from "../../http/openapi";
import { registerAppConfigRoutes } from "../app-config/routes";
import { registerCreatorAppRoutes } from "../creator-app/routes";

/** The creator-mode app: app config and the app's own operations — the route modules of this feature, registered by ../index.ts. */
export const creatorRouteModules: ((app: Router) => void)[] = [registerAppConfigRoutes, registerCreatorAppRoutes];
