import type { Router } from "../../http/openapi";
import { registerGitHostRoutes } from "../git-hosts/routes";
import { registerNotificationRoutes } from "../notifications/routes";
import { registerOAuthRoutes } from "../oauth/routes";
import { registerOidcTokenConfigRoutes } from "../oidc-token-configs/routes";
import { registerOperationsRoutes } from "../operations/routes";
import { registerTenantSettingsRoutes } from "../tenant-settings/routes";

/** Administration: users in bulk, tenant settings, identity, notifications, operations — the route modules of this feature, registered by ../index.ts. */
export const adminRouteModules: ((app: Router) => void)[] = [
  registerTenantSettingsRoutes,
  registerOperationsRoutes,
  registerOidcTokenConfigRoutes,
  registerOAuthRoutes,
  registerGitHostRoutes,
  registerNotificationRoutes,
];
