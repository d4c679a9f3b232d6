import type { Context } from "hono";
import type { AccessLogOptions } from "../context";
import type { Logger } from "../logger";

export const DEFAULT_SLOW_REQUEST_MS = 1000;
const DEFAULT_CLIENT_ERROR_WINDOW_MS = 60_000;
const MAX_LOGGED_PATH = 300;

// A UUID (a chat thread, say) is an id, not a secret.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The request path as it may be logged. The query string is never part of it (session ids,
 * filter values and OAuth codes travel there). Route paths carry only ids, but an unmatched
 * path is whatever the client sent, so a segment that looks like a credential — an API key
 * (`svc_…`), a JWT (`eyJ…`), or any run of 24 or more token characters that is not a UUID —
 * is replaced by `[redacted]`.
 */
export function loggablePath(path: string): string {
  const safe = path
    .split("/")
    .map((segment) => {
      if (segment.startsWith("svc_") || segment.startsWith("eyJ")) return "[redacted]";
      if (segment.length >= 24 && !UUID.test(segment) && /^[A-Za-z0-9._~%+=-]+$/.test(segment)) return "[redacted]";
      return segment;
    })
    .join("/");
  return safe.length > MAX_LOGGED_PATH ? `${safe.slice(0, MAX_LOGGED_PATH)}…` : safe;
}

/**
 * What to log of each answer (docs/administration.md "Logs"):
 * - every request: one `debug` line `request` (request id, method, route, path, status, ms);
 * - 5xx: that line at `warn`, so failures stay visible at the default level (the error itself
 *   is logged by the error handler, with the same request id);
 * - slower than `slowRequestMs`: a `warn` line `slow request`;
 * - 4xx: counted by status and written as one `info` line `client errors` per window, so a
 *   burst of refused keys or a scanner shows up without a line per request.
 * Never the query string, a header, a cookie or a body.
 */
export function createAccessLog(logger: Logger, options: AccessLogOptions = {}) {
  const slowMs = options.slowRequestMs ?? DEFAULT_SLOW_REQUEST_MS;
  const windowMs = options.clientErrorWindowMs ?? DEFAULT_CLIENT_ERROR_WINDOW_MS;
  let counts: Record<string, number> = {};
  let windowStartedAt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function flush() {
    if (timer) clearTimeout(timer);
    timer = null;
    const byStatus = counts;
    counts = {};
    const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
    if (total === 0) return;
    logger.info("client errors", { total, byStatus, windowMs, since: new Date(windowStartedAt).toISOString() });
  }

  function countClientError(status: number) {
    if (!timer) {
      windowStartedAt = Date.now();
      timer = setTimeout(flush, windowMs);
      // The summary never keeps a process alive (a window cut short by a stop is not written).
      timer.unref?.();
    }
    counts[status] = (counts[status] ?? 0) + 1;
  }

  function record(c: Context, requestId: string, durationMs: number) {
    const status = c.res.status;
    // The pattern of the route that answered; null when none did (404 of an unknown path).
    const route = c.req.routePath === "/*" || c.req.routePath === "*" ? null : c.req.routePath;
    const fields = {
      requestId,
      method: c.req.method,
      route,
      path: loggablePath(c.req.path),
      status,
      durationMs: Math.round(durationMs * 10) / 10,
    };
    if (status >= 500) logger.warn("request", fields);
    else logger.debug("request", fields);
    if (status >= 400 && status < 500) countClientError(status);
    if (slowMs > 0 && durationMs > slowMs) logger.warn("slow request", { ...fields, thresholdMs: slowMs });
  }

  return { record, flush };
}
export type AccessLog = ReturnType<typeof createAccessLog>;
