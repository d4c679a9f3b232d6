import type { AppDeps } from "../app";
import type { Principal } from "./principal";

/** Hono environment of the app: what middleware puts on the context. */
export interface AppEnv {
  Variables: {
    deps: AppDeps;
    principal: Principal | null;
    requestId: string;
  };
}
