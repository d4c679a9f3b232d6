/**
 * Authentication at start-up. Signed mode: the URL carries `session=` (chat also
 * `sessionId=`), exchanged once for a bearer token; the parameter leaves the URL right away
 * so a reload or a copied link cannot replay it. Private mode: no session parameter, the
 * platform login cookie authenticates.
 */
import { ApiError, apiError, type EmbedApi } from "./api";
import { exchangeEmbedSession, type SessionTokenResponse } from "./platform-api";
import type { ExportFormat } from "../../schema/export-formats";

export type EmbedAuth =
  | {
      mode: "signed";
      token: string;
      /** Epoch milliseconds. */
      expiresAt: number | null;
      deploymentId: number;
      embedTenant: string | null;
      /** The export formats the session grants (`settings.allowExport`). */
      exportFormats: ExportFormat[];
    }
  | { mode: "private" };

export const SESSION_PARAMETERS = ["session", "sessionId"] as const;

/** The session id of the URL, if any (`session=` wins over `sessionId=`). */
export function readSessionParameter(search: string): string | null {
  const params = new URLSearchParams(search);
  for (const name of SESSION_PARAMETERS) {
    const value = params.get(name)?.trim();
    if (value) return value;
  }
  return null;
}

/** The URL without its session parameters (path, other parameters and hash unchanged). */
export function withoutSessionParameters(href: string): string {
  const url = new URL(href);
  for (const name of SESSION_PARAMETERS) url.searchParams.delete(name);
  return url.pathname + url.search + url.hash;
}

export function toEpochMs(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const ms = typeof value === "number" ? (value < 1e12 ? value * 1000 : value) : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The exchange index.html starts before the app's bundle has loaded (an inline script), so
 * the token request overlaps the download of the JavaScript. Shape written by that script.
 */
export interface EarlySessionExchange {
  sessionId: string;
  response: Promise<Response>;
}

/** Name of the window property the inline script of index.html sets. */
export const EARLY_SESSION_EXCHANGE_PROPERTY = "__svcSessionExchange";

/**
 * Takes the early exchange for `sessionId` off the window (once: a second call gets null),
 * or null when there is none, it is malformed, or it was started for another session id.
 */
export function takeEarlySessionExchange(win: object, sessionId: string): EarlySessionExchange | null {
  const holder = win as Record<string, unknown>;
  const value = holder[EARLY_SESSION_EXCHANGE_PROPERTY] as Partial<EarlySessionExchange> | null | undefined;
  if (value === undefined) return null;
  delete holder[EARLY_SESSION_EXCHANGE_PROPERTY];
  if (!value || typeof value !== "object" || value.sessionId !== sessionId || !(value.response instanceof Promise)) return null;
  return { sessionId, response: value.response };
}

/** The token response of an early exchange, failing exactly as the typed client's call would. */
export async function earlyExchangeResult(exchange: EarlySessionExchange): Promise<SessionTokenResponse> {
  let response: Response;
  try {
    response = await exchange.response;
  } catch {
    throw apiError(0, "network_error", "The platform could not be reached");
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw new ApiError(response.status, body);
  const token = body as Partial<SessionTokenResponse> | undefined;
  if (!token || typeof token.token !== "string" || typeof token.deploymentId !== "number") {
    throw apiError(502, "invalid_response", "The session exchange returned an unusable answer");
  }
  return token as SessionTokenResponse;
}

function toSignedAuth(api: EmbedApi, response: SessionTokenResponse): Extract<EmbedAuth, { mode: "signed" }> {
  api.setToken(response.token);
  return {
    mode: "signed",
    token: response.token,
    expiresAt: toEpochMs(response.expiresAt),
    deploymentId: response.deploymentId,
    embedTenant: response.embedTenant ?? null,
    exportFormats: response.exportFormats ?? [],
  };
}

/**
 * Exchanges a session id for a token and sets it on the client. Throws the ApiError of the
 * exchange (401 for an unknown, used or expired session).
 */
export async function exchangeSession(api: EmbedApi, sessionId: string): Promise<Extract<EmbedAuth, { mode: "signed" }>> {
  return toSignedAuth(api, await exchangeEmbedSession(api, sessionId));
}

/**
 * Starts the embed's authentication for the current location. The session parameter is
 * removed from the address bar whether or not the exchange succeeds. The exchange index.html
 * already started is used when there is one (the session id is single use: it is never
 * exchanged twice); otherwise the app exchanges it itself.
 */
export async function startEmbedAuth(api: EmbedApi, location: Location, history: History, win: object = globalThis): Promise<EmbedAuth> {
  const sessionId = readSessionParameter(location.search);
  if (!sessionId) return { mode: "private" };
  history.replaceState(history.state, "", withoutSessionParameters(location.href));
  const early = takeEarlySessionExchange(win, sessionId);
  if (early) return toSignedAuth(api, await earlyExchangeResult(early));
  return exchangeSession(api, sessionId);
}
