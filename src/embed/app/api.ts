/**
 * The embed's HTTP access to the platform API: a bearer token in signed mode, the platform
 * login cookie in private mode. Failures become one error type with the HTTP status and the
 * platform's error `code`, so surfaces map them to the protocol's error names in one place.
 */
import type { SvcErrorName } from "../../protocol";

export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    /** HTTP status; 0 when the platform could not be reached. */
    readonly status: number,
    /** The platform's error code (`not_found`, `query_timeout`, …) or `network_error`. */
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException ? error.name === "AbortError" : (error as { name?: string } | null)?.name === "AbortError";
}

/** Protocol error name (decisions.md "Protocol extensions") for a failure. */
export function errorNameOf(error: unknown, fallback: SvcErrorName = "QueryFailed"): SvcErrorName {
  if (!(error instanceof ApiError)) return fallback;
  if (error.status === 0) return "NetworkError";
  if (error.status === 401) return error.code === "session_expired" || error.code === "token_expired" ? "SessionExpired" : "SessionInvalid";
  if (error.status === 403) return "Forbidden";
  if (error.status === 404) return "NotFound";
  if (error.status === 429) return "RateLimited";
  return fallback;
}

export interface ApiClientOptions {
  /** Base path or URL of the API, e.g. `/api/v1`. */
  apiBase: string;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface ApiClient {
  get<T>(path: string, signal?: AbortSignal): Promise<T>;
  post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T>;
  /** Bearer token of a signed embed; null falls back to the login cookie. */
  setToken(token: string | null): void;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const base = options.apiBase.replace(/\/$/, "");
  let token: string | null = null;

  async function request<T>(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers.Authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await doFetch(base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "same-origin",
        signal,
      });
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new ApiError(0, "network_error", "The platform could not be reached");
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const problem = (parsed ?? {}) as { code?: unknown; message?: unknown; details?: unknown };
      throw new ApiError(
        response.status,
        typeof problem.code === "string" ? problem.code : `http_${response.status}`,
        typeof problem.message === "string" ? problem.message : response.statusText || `HTTP ${response.status}`,
        problem.details,
      );
    }
    return parsed as T;
  }

  return {
    get: (path, signal) => request("GET", path, undefined, signal),
    post: (path, body, signal) => request("POST", path, body, signal),
    setToken(next) {
      token = next;
    },
  };
}
