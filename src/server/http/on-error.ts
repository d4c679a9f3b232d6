import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DomainError, type DomainErrorCode } from "../domain/errors";
import type { Logger } from "../logger";
import { loggablePath } from "./access-log";
import type { AppEnv } from "./app-env";

/** The one table from domain error codes to HTTP statuses. */
export const STATUS_OF: Record<DomainErrorCode, ContentfulStatusCode> = {
  validation_failed: 400,
  invalid_move: 400,
  data_model_invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  csrf_failed: 403,
  not_found: 404,
  conflict: 409,
  upsert_branch_changed: 409,
  slug_taken: 409,
  public_id_taken: 409,
  user_exists: 409,
  dashboard_not_published: 409,
  stale_checksum: 409,
  merge_conflict: 409,
  not_in_dev_mode: 409,
  branch_head_changed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  // Report Python failed, ran past its time limit or its memory limit (details.reason).
  python_failed: 422,
  python_unavailable: 503,
  // 499: the client closed the request; nobody reads the answer, but logs should not say 500.
  query_cancelled: 499 as ContentfulStatusCode,
  query_failed: 500,
  internal_error: 500,
  datasource_unavailable: 503,
  query_timeout: 504,
  // The user's OAuth connection is gone or refused by its server: initiate it again.
  oauth_reconnect_required: 409,
  // An outside server (authorization server, git host) failed or answered unexpectedly.
  upstream_failed: 502,
  // A deployment created without a data source (the set-up wizard's data-source step gives it): nothing to query yet.
  data_source_not_configured: 400,
  // A chat answer's failure, said as its last line rather than as a status; these only apply
  // should one ever be answered as a response. Last, so a status's first code stays the same.
  ai_rate_limited: 429,
  ai_provider_failed: 502,
  ai_timeout: 504,
  ai_step_limit: 502,
  ai_disabled: 403,
  ai_invalid_response: 502,
  query_value_error: 422,
  export_format_not_allowed: 403,
};

/** The domain code of a framework error's status (its first code in the table), so every answer carries a known code. */
function codeOfStatus(status: number): DomainErrorCode {
  const entry = Object.entries(STATUS_OF).find(([, s]) => s === status);
  return entry ? (entry[0] as DomainErrorCode) : status >= 500 ? "internal_error" : "validation_failed";
}

/**
 * Status and body of an error answered inside a response rather than as one (the items of a
 * batch): the same codes and bodies `toErrorResponse` gives; unexpected errors are a logged 500.
 */
export function errorItemOf(err: unknown, c: Context<AppEnv>, logger: Logger): { status: number; body: Record<string, unknown> } {
  if (err instanceof DomainError) {
    const status = STATUS_OF[err.code];
    const body: Record<string, unknown> = { code: err.code, message: err.message };
    if (err.details !== undefined) body.details = err.details;
    if (status >= 500) logger.error("request failed", { ...where(c), code: err.code, error: err.message });
    return { status, body };
  }
  logger.error("unhandled error", { ...where(c), error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  return { status: 500, body: { code: "internal_error", message: "Internal server error" } };
}

/** The request an error line is about: its id (as in the access log), method and loggable path. */
function where(c: Context<AppEnv>) {
  return { requestId: c.get("requestId") ?? null, method: c.req.method, path: loggablePath(c.req.path) };
}

/** Maps any error to `{code, message, details?}`; unexpected ones become a 500 without internals. */
export function toErrorResponse(err: unknown, c: Context<AppEnv>, logger: Logger) {
  if (err instanceof DomainError) {
    const status = STATUS_OF[err.code];
    const body: Record<string, unknown> = { code: err.code, message: err.message };
    if (err.details !== undefined) body.details = err.details;
    if (status === 401) c.header("WWW-Authenticate", 'Bearer realm="svc"');
    // The body was refused unread: the connection cannot carry another request after it.
    if (status === 413) c.header("Connection", "close");
    if (err.retryAfterSeconds !== undefined) c.header("Retry-After", String(err.retryAfterSeconds));
    if (status >= 500) logger.error("request failed", { ...where(c), code: err.code, error: err.message });
    return c.json(body, status);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const code = codeOfStatus(status);
    const message = err.message || (status === 413 ? "Request body is too large" : "Request failed");
    if (status === 413) c.header("Connection", "close");
    // A validation error always lists its problems, here the request as a whole.
    return c.json(code === "validation_failed" ? { code, message, details: [{ path: [], message }] } : { code, message }, status);
  }
  logger.error("unhandled error", { ...where(c), error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  return c.json({ code: "internal_error", message: "Internal server error" }, 500);
}
