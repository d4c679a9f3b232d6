/**
 * The embed's HTTP access to the platform API: the typed platform client (src/client) with a
 * bearer token in signed mode (cookies never sent) and the platform login cookie in private
 * mode, where every write also carries the login session's CSRF token. Failures become one error type, `SvcPlatformApiError` with the HTTP status and the
 * platform's error `code`, so surfaces map them to the protocol's error names in one place.
 */
import { SvcPlatformApiError } from "../../client/api-error";
import { createSvcPlatformClient, type SvcPlatformClient } from "../../client/platform-client";
import type { SvcErrorName } from "../../protocol";

/** The API error of the embed: the client's error type (`status`, `code`, `message`). */
export const ApiError = SvcPlatformApiError;
export type ApiError = SvcPlatformApiError;

/** An ApiError from a status and a code (used for problems found before any request). */
export function apiError(status: number, code: string, message: string): ApiError {
  return new SvcPlatformApiError(status, { code, message });
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException ? error.name === "AbortError" : (error as { name?: string } | null)?.name === "AbortError";
}

/** Protocol error name (decisions.md "Protocol extensions") for a failure. */
export function errorNameOf(error: unknown, fallback: SvcErrorName = "QueryFailed"): SvcErrorName {
  if (!(error instanceof SvcPlatformApiError)) return fallback;
  if (error.status === 0) return "NetworkError";
  if (error.status === 401) return error.code === "session_expired" || error.code === "token_expired" ? "SessionExpired" : "SessionInvalid";
  if (error.status === 403) return "Forbidden";
  if (error.status === 404) return "NotFound";
  if (error.status === 429) return "RateLimited";
  return fallback;
}

export interface EmbedApiOptions {
  /** Origin of the platform (the embed's own origin). */
  baseUrl: string;
  /**
   * `signed`: token only, `credentials: "omit"` so no platform cookie ever rides along;
   * `private`: the viewer's login cookie (`same-origin`).
   */
  mode: "signed" | "private";
  /** Injected for tests; defaults to the global fetch. */
  fetch?: (input: Request) => Promise<Response>;
}

/** The typed client plus the embed's token, which changes when the host swaps the session. */
export interface EmbedApi {
  readonly client: SvcPlatformClient;
  readonly mode: "signed" | "private";
  /** Bearer token of a signed embed; null sends none (an expired session). */
  setToken(token: string | null): void;
  /** True while a token is set. */
  hasToken(): boolean;
  /**
   * A raw request (streamed answers and other bodies the typed client does not read), sent as
   * every typed call is: the bearer token, the credentials mode and, in private mode, the login
   * session's CSRF token on a write (fetched before the first one).
   */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/** The header the platform reads a login session's CSRF token from (server http/auth.ts). */
const CSRF_HEADER = "X-CSRF-Token";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// Signing in opens a new session: these need (and check) no token.
const SIGN_IN_PATHS = ["/api/v1/auth/login", "/api/v1/auth/sign-in-link"];

/**
 * Private mode: a cookie-authenticated write must carry the session's CSRF token
 * (`X-CSRF-Token`), which only a page of the platform's origin can read — from
 * `GET /api/v1/auth/me`, before the first write and again after a `csrf_failed` refusal (the
 * session changed: a new sign-in), once.
 */
function csrfFetch(baseUrl: string, send: (request: Request) => Promise<Response>) {
  let csrf: string | null = null;
  let loading: Promise<string | null> | null = null;
  const load = () =>
    (loading ??= send(new Request(`${baseUrl.replace(/\/+$/, "")}/api/v1/auth/me`, { credentials: "same-origin" }))
      .then(async (res) => (res.ok ? (((await res.json()) as { csrfToken?: string | null }).csrfToken ?? null) : null))
      .catch(() => null)
      .finally(() => (loading = null)));
  const withToken = (request: Request, token: string | null) => {
    const copy = request.clone();
    if (token) copy.headers.set(CSRF_HEADER, token);
    return send(copy);
  };
  return {
    current: () => csrf,
    async fetch(request: Request): Promise<Response> {
      if (SAFE_METHODS.has(request.method) || request.headers.has("authorization") || SIGN_IN_PATHS.some((p) => new URL(request.url).pathname === p)) {
        return send(request);
      }
      csrf ??= await load();
      const res = await withToken(request, csrf);
      if (res.status !== 403) return res;
      const body = (await res
        .clone()
        .json()
        .catch(() => null)) as { code?: string } | null;
      if (body?.code !== "csrf_failed") return res;
      csrf = await load();
      return csrf ? withToken(request, csrf) : res;
    },
  };
}

export function createEmbedApi(options: EmbedApiOptions): EmbedApi {
  let token: string | null = null;
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const csrf = options.mode === "private" ? csrfFetch(options.baseUrl, send) : null;
  const client = createSvcPlatformClient({
    baseUrl: options.baseUrl,
    // Read per request, so a swapped session applies to the next call without a new client.
    getHeaders: (): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {}),
    credentials: options.mode === "signed" ? "omit" : "same-origin",
    fetch: csrf ? (request) => csrf.fetch(request) : send,
  });
  return {
    client,
    mode: options.mode,
    setToken(next) {
      token = next;
    },
    hasToken: () => token !== null,
    fetch(path, init = {}) {
      const request = new Request(new URL(path, options.baseUrl), { ...init, credentials: options.mode === "signed" ? "omit" : "same-origin" });
      if (token) request.headers.set("Authorization", `Bearer ${token}`);
      return csrf ? csrf.fetch(request) : send(request);
    },
  };
}

/**
 * The data of a typed client call, or its failure as an ApiError: the API's error body with
 * its status, or status 0 `network_error` when the platform could not be reached. An abort
 * rejects with the AbortError itself.
 */
export async function dataOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw apiError(0, "network_error", "The platform could not be reached");
  }
  if (result.error !== undefined || !result.response.ok) throw new SvcPlatformApiError(result.response.status, result.error);
  return result.data as T;
}
