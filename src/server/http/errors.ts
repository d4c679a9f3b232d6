import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import type { Logger } from "../logger";

/** Stable snake_case codes of decisions.md, plus the ones specific endpoints add. */
export type ErrorCode =
  | "not_found"
  | "validation_failed"
  | "upsert_branch_changed"
  | "unauthorized"
  | "forbidden"
  | "conflict"
  | "rate_limited"
  | "payload_too_large"
  | "datasource_unavailable"
  | "query_timeout"
  | "query_failed"
  | "internal_error"
  | (string & {});

/** The one error type of the app; `onError` maps it to `{code, message, details?}`. */
export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ErrorCode;
  readonly details?: unknown;
  constructor(status: ContentfulStatusCode, opts: { code: ErrorCode; message: string; details?: unknown; cause?: unknown }) {
    super(opts.message, { cause: opts.cause });
    this.name = "HttpError";
    this.status = status;
    this.code = opts.code;
    this.details = opts.details;
  }
}

export const notFound = (what: string) => new HttpError(404, { code: "not_found", message: `${what} not found` });
export const forbidden = (message = "You do not have access to this resource") => new HttpError(403, { code: "forbidden", message });
export const unauthorized = (message = "Missing or invalid credentials") => new HttpError(401, { code: "unauthorized", message });
export const conflict = (message: string, code: ErrorCode = "conflict", details?: unknown) => new HttpError(409, { code, message, details });
export const badRequest = (message: string, details?: unknown) => new HttpError(400, { code: "validation_failed", message, details });

/** Each bad field with its JSON path. */
export function zodDetails(error: ZodError, prefix: (string | number)[] = []) {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
    message: issue.message,
    code: issue.code,
  }));
}

export function validationError(error: ZodError, where: string, prefix: (string | number)[] = []) {
  const details = zodDetails(error, prefix);
  const first = details[0];
  const summary = first ? `${first.path.length ? first.path.join(".") + ": " : ""}${first.message}` : "invalid";
  return badRequest(`Invalid ${where}: ${summary}${details.length > 1 ? ` (and ${details.length - 1} more)` : ""}`, details);
}

/** Maps any error to the error body; unexpected ones become a 500 without internals. */
export function toErrorResponse(err: unknown, c: Context, logger: Logger) {
  if (err instanceof HttpError) {
    const body: Record<string, unknown> = { code: err.code, message: err.message };
    if (err.details !== undefined) body.details = err.details;
    if (err.status === 401) c.header("WWW-Authenticate", 'Bearer realm="svc"');
    return c.json(body, err.status);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const code = status === 413 ? "payload_too_large" : status === 400 ? "validation_failed" : status === 404 ? "not_found" : status === 401 ? "unauthorized" : "error";
    const message = err.message || (status === 413 ? "Request body is too large" : "Request failed");
    return c.json({ code, message }, status);
  }
  // Domain errors of the semantic layer and data sources carry their own status and code.
  const mapped = err as { status?: number; errorCode?: string; message?: string; details?: unknown; problems?: unknown };
  if (typeof mapped?.status === "number" && typeof mapped.errorCode === "string" && mapped.status >= 400 && mapped.status < 600) {
    const details = mapped.details ?? mapped.problems;
    return c.json(
      { code: mapped.errorCode, message: mapped.message ?? "Request failed", ...(details !== undefined ? { details } : {}) },
      mapped.status as ContentfulStatusCode,
    );
  }
  logger.error("unhandled error", { path: c.req.path, method: c.req.method, error: err instanceof Error ? err.stack ?? err.message : String(err) });
  return c.json({ code: "internal_error", message: "Internal server error" }, 500);
}
