import type { Router } from "../../http/openapi";
import { registerContentTranslationRoutes } from "../content-translation/routes";
import { registerDataModelRoutes } from "../data-model/routes";
import { registerDeploymentSetupRoutes } from "../deployment-setup/routes";

/** The build API: versioned data models, dev mode, branches, uploads, git, content dictionaries — the route modules of this feature, registered by ../index.ts. */
export const buildRouteModules: ((app: Router) => void)[] = [registerDataModelRoutes, registerDeploymentSetupRoutes, registerContentTranslationRoutes];
