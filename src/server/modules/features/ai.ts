import type { Router } from "../../http/openapi";
import { registerChatRoutes } from "../chat/routes";

/** AI analytics: chat threads, the AI widget — the route modules of this feature, registered by ../index.ts. */
export const aiRouteModules: ((app: Router) => void)[] = [registerChatRoutes];
