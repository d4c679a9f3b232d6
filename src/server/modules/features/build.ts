import type { Router } from "../../http/openapi";
import { registerDataModelRoutes } from "../data-model/routes";
import { registerDeploymentSetupRoutes } from "../deployment-setup/routes";

/** The build API: versioned data models, dev mode, branches, uploads, git — the route modules of this feature, registered by ../index.ts. */
export const buildRouteModules: ((app: Router) => void)[] = [registerDataModelRoutes, registerDeploymentSetupRoutes];
