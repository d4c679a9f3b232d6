import type { Router } from "../http/openapi";
import { registerApiKeyRoutes } from "./api-keys";
import { registerDeploymentRoutes } from "./deployments";
import { registerEmbedSessionRoutes } from "./embed-sessions";

/** Every API route module, one line each; `createApp` registers them in this order. */
export const routeModules: ((app: Router) => void)[] = [registerDeploymentRoutes, registerApiKeyRoutes, registerEmbedSessionRoutes];
