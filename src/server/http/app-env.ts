import type { IncomingMessage } from "node:http";
import type { AppDeps, Principal } from "../context";

/** Hono environment of the app: what middleware puts on the context. */
export interface AppEnv {
  /** Set by @hono/node-server when the app serves a real socket; absent in-process (`app.request`). */
  Bindings: { incoming?: IncomingMessage };
  Variables: {
    deps: AppDeps;
    principal: Principal | null;
    requestId: string;
  };
}
