import type { ZodError } from "zod";

/**
 * Every code the platform answers with, and what each means. The HTTP layer maps them to
 * statuses in one table (`http/on-error.ts`); nothing else in the domain knows about HTTP.
 * Stable snake_case identifiers (decisions.md "Errors and lists"): a host may branch on them.
 */
export const DOMAIN_ERROR_CODES = [
  "validation_failed",
  "invalid_move",
  "data_model_invalid",
  "unauthorized",
  "forbidden",
  "csrf_failed",
  "not_found",
  "conflict",
  "upsert_branch_changed",
  "slug_taken",
  "public_id_taken",
  "user_exists",
  "dashboard_not_published",
  "stale_checksum",
  "merge_conflict",
  "not_in_dev_mode",
  "branch_head_changed",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "query_cancelled",
  "query_failed",
  "internal_error",
  "datasource_unavailable",
  "query_timeout",
  "oauth_reconnect_required",
  "upstream_failed",
  "python_failed",
  "python_unavailable",
  "data_source_not_configured",
  // A chat answer's model or engine failed (AiError, mapped in modules/chat/run-error.ts).
  "ai_rate_limited",
  "ai_provider_failed",
  "ai_timeout",
  "ai_step_limit",
  "ai_disabled",
  "ai_invalid_response",
  // The database could not compute a value of the query from the data (an overflow, a value
  // out of range, a text that is no number): the query's figures, not the server, are at fault.
  "query_value_error",
  // An export in a format the embed session does not grant (settings.allowExport).
  "export_format_not_allowed",
] as const;
export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

/** Options of a DomainError beyond its code and message. */
export interface DomainErrorOptions {
  /** Machine-readable detail: for `validation_failed`, each bad field with its JSON path. */
  details?: unknown;
  /** For `rate_limited`: when the caller may try again. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** The one error type of the domain: a closed code, a message safe to show, optional details. */
export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly details?: unknown;
  readonly retryAfterSeconds?: number;
  constructor(code: DomainErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "DomainError";
    this.code = code;
    if (options.details !== undefined) this.details = options.details;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const notFound = (what: string) => new DomainError("not_found", `${what} not found`);
export const forbidden = (message = "You do not have access to this resource") => new DomainError("forbidden", message);
export const unauthorized = (message = "Missing or invalid credentials") => new DomainError("unauthorized", message);
export const conflict = (message: string, code: DomainErrorCode = "conflict", details?: unknown) => new DomainError(code, message, { details });
export const badRequest = (message: string, details?: unknown) => new DomainError("validation_failed", message, { details });

/** Each bad field with its JSON path. */
export function zodDetails(error: ZodError, prefix: (string | number)[] = []) {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
    message: issue.message,
    code: issue.code,
  }));
}

/** A `validation_failed` error naming the first problem and listing all of them in details. */
export function validationError(error: ZodError, where: string, prefix: (string | number)[] = []) {
  const details = zodDetails(error, prefix);
  const first = details[0];
  const summary = first ? `${first.path.length ? first.path.join(".") + ": " : ""}${first.message}` : "invalid";
  return badRequest(`Invalid ${where}: ${summary}${details.length > 1 ? ` (and ${details.length - 1} more)` : ""}`, details);
}
