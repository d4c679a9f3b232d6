import { OpenAPIHono, type Hook } from "@hono/zod-openapi";
import { z } from "zod";
import { ErrorBody, IdParam } from "../../schema/common";
import type { AppEnv } from "./app-env";
import { validationError } from "../domain/errors";

const hook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) {
    const target = (result as { target?: string }).target ?? "request";
    const where = target === "json" ? "request body" : target === "param" ? "path parameter" : target === "query" ? "query parameter" : target;
    throw validationError(result.error, where);
  }
};

/** A router whose request validation failures become `400 validation_failed` with paths. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: hook });
}
export type Router = ReturnType<typeof createRouter>;

const errorContent = { "application/json": { schema: ErrorBody } };
const err = (description: string) => ({ description, content: errorContent });

/** The error responses every authenticated operation can give. */
export const commonErrors = {
  400: err("Invalid input: `validation_failed` with the path of each problem in `details`."),
  401: err("Missing, malformed, expired or revoked credentials."),
  403: err("Valid credentials, not allowed."),
} as const;
export const notFoundError = { 404: err("Not found.") } as const;
export const conflictError = { 409: err("Conflict.") } as const;

export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

export function jsonBody<T extends z.ZodType>(schema: T, opts: { required?: boolean; description?: string } = {}) {
  return { body: { required: opts.required ?? true, description: opts.description, content: { "application/json": { schema } } } };
}

export const security = [{ bearerAuth: [] as string[] }];

/** A numeric path id: decimal digits only, positive, within int4 (defined with the other input primitives). */
export { IdParam };

/**
 * Registers `route` with `handler`, and the same operation also at `alsoAt` (its path without
 * the trailing slash, for clients that normalise paths), which the document does not list twice.
 */
export function openapiWithAlias<R extends Parameters<Router["openapi"]>[0]>(
  app: Router,
  route: R,
  alsoAt: string,
  handler: Parameters<typeof app.openapi<R>>[1],
): void {
  app.openapi(route, handler);
  // The alias differs from `route` only in its path (a literal type of the route's) and in being hidden.
  app.openapi({ ...route, path: alsoAt, hide: true } as unknown as R, handler);
}
