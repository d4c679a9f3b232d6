import { randomUUID } from "node:crypto";
import { bodyLimit } from "hono/body-limit";
import { createAccessLog } from "./http/access-log";
import { authentication } from "./http/auth";
import { inputPolicy } from "./http/input-policy";
import { DomainError } from "./domain/errors";
import { toErrorResponse } from "./http/on-error";
import { createRouter } from "./http/openapi";
import { registerOpenApiDocument } from "./http/openapi-document";
import { routeModules } from "./modules";
import { registerEmbedAppRoutes } from "./modules/embed-app/routes";
import { createKnownChatThreads } from "./modules/chat/known-threads";
import { createChatRunRegistry } from "./modules/chat/run-registry";
import type { AppDeps } from "./context";

export const MAX_BODY_BYTES = 1024 * 1024;

/** The whole HTTP app, testable in-process with `app.request()`. */
export function createApp(deps: AppDeps) {
  deps = {
    ...deps,
    authenticateEmbedToken: deps.authenticateEmbedToken ?? deps.embedSessions.authenticate,
    // In memory, one per app (a node): another node knows this one's answers once they are stored.
    chatRuns: deps.chatRuns ?? createChatRunRegistry(),
    knownChatThreads: deps.knownChatThreads ?? createKnownChatThreads(deps.db),
  };
  const app = createRouter();
  const accessLog = createAccessLog(deps.logger, deps.accessLog);

  app.use("*", async (c, next) => {
    c.set("deps", deps);
    c.set("principal", null);
    const requestId = randomUUID();
    c.set("requestId", requestId);
    const started = performance.now();
    await next();
    // Answered before the whole body arrived (refused unread, say): the rest of the body would
    // be taken for the next request, so the connection ends with this answer.
    if (c.env?.incoming && !c.env.incoming.complete) c.header("Connection", "close");
    c.header("X-Request-Id", requestId);
    c.header("X-Content-Type-Options", "nosniff");
    // Paths only, never query strings: they can carry session ids and filter values.
    accessLog.record(c, requestId, performance.now() - started);
  });

  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new DomainError("payload_too_large", `Request body is larger than ${MAX_BODY_BYTES} bytes`);
    },
  });
  app.use("/api/*", limit);
  app.use("/build/*", limit);
  app.use("/api/*", authentication());
  app.use("/build/*", authentication());
  app.use("/api/*", inputPolicy());
  app.use("/build/*", inputPolicy());

  for (const register of routeModules) register(app);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "An API key (`svc_…`) or a signed-embed token. The same token works on /api/v1 and /build/api/v1.",
  });
  registerOpenApiDocument(app);

  registerEmbedAppRoutes(app, deps);

  app.notFound((c) => c.json({ code: "not_found", message: `No route for ${c.req.method} ${c.req.path}` }, 404));
  app.onError((err, c) => toErrorResponse(err, c, deps.logger));
  return app;
}
export type App = ReturnType<typeof createApp>;
export type { AppDeps } from "./context";
