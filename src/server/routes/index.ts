import type { Router } from "../http/openapi";
import { registerApiKeyRoutes } from "./api-keys";
import { registerDeploymentRoutes } from "./deployments";
import { registerEmbedSessionRoutes } from "./embed-sessions";
import { registerEmbedTenantRoutes } from "./embed-tenants";
import { registerEmbedAccessRoutes } from "./embed-access";
import { registerEmbedDashboardRoutes } from "./embed-dashboard";
import { registerUserAttributeRoutes } from "./user-attributes";
import { registerAuthRoutes } from "./auth";
import { registerAllowedOriginRoutes } from "./allowed-origins";
import { registerQueryRoutes } from "./query";
import { registerWorkspaceModules } from "./workspace";

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
