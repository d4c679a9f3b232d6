import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths } from "./generated/schema";

/** Header values a `getHeaders` callback may return. */
export type SvcPlatformHeaders = Record<string, string> | Headers | [string, string][];

/** Options of {@link createSvcPlatformClient}. */
export interface SvcPlatformClientConfig {
  /**
   * Origin the platform is reached at, e.g. `https://acme.example.com` (paths already carry
   * `/api/v1` and `/build/api/v1`). A trailing slash is ignored.
   */
  baseUrl: string;
  /** An API key (`svc_…`) or a signed-embed token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /**
   * Headers computed per request (e.g. a token that refreshes); merged over the static ones,
   * so it may also supply `Authorization`. Awaited before every request.
   */
  getHeaders?: () => SvcPlatformHeaders | undefined | Promise<SvcPlatformHeaders | undefined>;
  /**
   * Forwarded to `fetch`. Unset, the browser's default (`same-origin`) applies; use `omit` for
   * token-only clients (signed embedding) that must never authenticate by cookie.
   */
  credentials?: RequestCredentials;
  /** The `fetch` to use (defaults to `globalThis.fetch`); tests and non-browser hosts inject one. */
  fetch?: (input: Request) => Promise<Response>;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/**
 * The typed platform client: `GET`, `PUT`, `POST`, `PATCH`, `DELETE` and `request` over every
 * operation of the OpenAPI document. Each call resolves to `{ data, error, response }`;
 * only transport failures (network down, DNS, aborted) reject.
 */
export type SvcPlatformClient = Client<paths, "application/json">;

/** Creates the typed platform client (spec 9, since 0.0.20). */
export function createSvcPlatformClient(config: SvcPlatformClientConfig): SvcPlatformClient {
  const headers: Record<string, string> = { ...config.headers };
  if (config.token) headers.authorization = `Bearer ${config.token}`;
  const client = createClient<paths, "application/json">({
    baseUrl: config.baseUrl.replace(/\/+$/, ""),
    headers,
    // Only set when given: an explicit undefined would still be the default, but leaving the
    // key out keeps the browser's behaviour visibly untouched.
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // Resolved per call so a fetch replaced after creation (test spies, polyfills) is used.
    fetch: config.fetch ?? ((request: Request) => globalThis.fetch(request)),
  });
  if (config.getHeaders) client.use(dynamicHeaders(config.getHeaders));
  return client;
}

function dynamicHeaders(getHeaders: NonNullable<SvcPlatformClientConfig["getHeaders"]>): Middleware {
  return {
    async onRequest({ request }) {
      const extra = await getHeaders();
      if (!extra) return undefined;
      new Headers(extra).forEach((value, key) => request.headers.set(key, value));
      return request;
    },
  };
}

/**
 * @deprecated Since 0.0.20; use {@link createSvcPlatformClient}. Removed in a future major version.
 */
export const createSvcCloudClient = createSvcPlatformClient;
/**
 * @deprecated Since 0.0.20; use {@link SvcPlatformClientConfig}. Removed in a future major version.
 */
export type SvcCloudClientConfig = SvcPlatformClientConfig;
/**
 * @deprecated Since 0.0.20; use {@link SvcPlatformClient}. Removed in a future major version.
 */
export type SvcCloudClient = SvcPlatformClient;
