import type { Router } from "../http/openapi";
import { registerApiKeyRoutes } from "./api-keys/routes";
import { registerDeploymentRoutes } from "./deployments/routes";
import { registerEmbedSessionRoutes } from "./embed-sessions/routes";
import { registerEmbedTenantRoutes } from "./embed-tenants/routes";
import { registerEmbedAccessRoutes } from "./embed-access/routes";
import { registerEmbedDashboardRoutes } from "./dashboards/routes";
import { registerUserAttributeRoutes } from "./user-attributes/routes";
import { registerAuthRoutes } from "./auth/routes";
import { registerAllowedOriginRoutes } from "./account-settings/routes";
import { registerQueryRoutes } from "./query/routes";
import { registerWorkspaceModules } from "./workspace/routes";

/** Every API route module, one per line; `createApp` registers them in this order. */
export const routeModules: ((app: Router) => void)[] = [
  registerDeploymentRoutes,
  registerApiKeyRoutes,
  registerEmbedSessionRoutes,
  registerEmbedTenantRoutes,
  registerEmbedAccessRoutes,
  registerEmbedDashboardRoutes,
  registerUserAttributeRoutes,
  registerAuthRoutes,
  registerAllowedOriginRoutes,
  registerQueryRoutes,
  registerWorkspaceModules,
];
