import type { Router } from "../http/openapi";
import { registerGrantRoutes } from "./access/routes";
import { registerAllowedOriginRoutes } from "./account-settings/routes";
import { registerApiKeyRoutes } from "./api-keys/routes";
import { registerAuthRoutes } from "./auth/routes";
import { registerEmbedDashboardRoutes } from "./dashboards/routes";
import { registerEmbedExportRoutes } from "./embed-exports/routes";
import { registerEmbedReportRoutes } from "./embed-reports/routes";
import { registerDeploymentRoutes } from "./deployments/routes";
import { registerEmbedAccessRoutes } from "./embed-access/routes";
import { registerEmbedSessionRoutes } from "./embed-sessions/routes";
import { registerEmbedTenantRoutes } from "./embed-tenants/routes";
import { registerFolderRoutes } from "./folders/routes";
import { registerQueryRoutes } from "./query/routes";
import { registerRollupRoutes } from "./rollups/routes";
import { registerReportRoutes } from "./reports/routes";
import { registerUserAttributeRoutes } from "./user-attributes/routes";
import { registerUserRoutes } from "./users/routes";
import { registerWorkbookRoutes } from "./workbooks/routes";
import { registerWorkspaceRoutes } from "./workspace/routes";
import { adminRouteModules } from "./features/admin";
import { aiRouteModules } from "./features/ai";
import { appsRouteModules } from "./features/apps";
import { buildRouteModules } from "./features/build";
import { creatorRouteModules } from "./features/creator";
import { scaleRouteModules } from "./features/scale";

type RouteModule = (app: Router) => void;

/**
 * Deployments: `/api/v1/deployments/{id}` (spec 4.2) and their creation under
 * `/build/api/v1/deployments/` (the build surface), one module.
 */
const deploymentModules: RouteModule[] = [registerDeploymentRoutes];

/** Accounts and access on `/api/v1`: API keys, signed embedding, embed tenants, attributes, login. */
const accountModules: RouteModule[] = [
  registerApiKeyRoutes,
  registerEmbedSessionRoutes,
  registerEmbedTenantRoutes,
  registerEmbedAccessRoutes,
  registerEmbedDashboardRoutes,
  registerEmbedReportRoutes,
  registerEmbedExportRoutes,
  registerUserAttributeRoutes,
  registerAuthRoutes,
  registerAllowedOriginRoutes,
];

/** The semantic layer on `/api/v1/deployments/{id}`: query, SQL, values, meta. */
const queryModules: RouteModule[] = [registerQueryRoutes, registerRollupRoutes];

/** Workbooks as code and the workspace around them on `/api/v1/deployments/{id}` (spec 4.1, 4.2). */
const workspaceModules: RouteModule[] = [
  registerWorkbookRoutes,
  registerReportRoutes,
  registerFolderRoutes,
  registerWorkspaceRoutes,
  registerUserRoutes,
  registerGrantRoutes,
];

/** Every API route module; `createApp` registers them in this order (the OpenAPI document follows it). */
export const routeModules: RouteModule[] = [
  ...deploymentModules,
  ...accountModules,
  ...queryModules,
  ...workspaceModules,
  // Second-wave features, each listing its modules in ./features/<feature>.ts.
  ...creatorRouteModules,
  ...aiRouteModules,
  ...buildRouteModules,
  ...adminRouteModules,
  ...appsRouteModules,
  ...scaleRouteModules,
];
