import type { AppDeps, Principal } from "../context";

/** Hono environment of the app: what middleware puts on the context. */
export interface AppEnv {
  Variables: {
    deps: AppDeps;
    principal: Principal | null;
    requestId: string;
  };
}
