/**
 * Authentication at start-up. Signed mode: the URL carries `session=` (chat also
 * `sessionId=`), exchanged once for a bearer token; the parameter leaves the URL right away
 * so a reload or a copied link cannot replay it. Private mode: no session parameter, the
 * platform login cookie authenticates.
 */
import type { EmbedApi } from "./api";
import { exchangeEmbedSession } from "./platform-api";

export type EmbedAuth =
  | {
      mode: "signed";
      token: string;
      /** Epoch milliseconds. */
      expiresAt: number | null;
      deploymentId: number;
      embedTenant: string | null;
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
 * Exchanges a session id for a token and sets it on the client. Throws the ApiError of the
 * exchange (401 for an unknown, used or expired session).
 */
export async function exchangeSession(api: EmbedApi, sessionId: string): Promise<Extract<EmbedAuth, { mode: "signed" }>> {
  const response = await exchangeEmbedSession(api, sessionId);
  api.setToken(response.token);
  return {
    mode: "signed",
    token: response.token,
    expiresAt: toEpochMs(response.expiresAt),
    deploymentId: response.deploymentId,
    embedTenant: response.embedTenant ?? null,
  };
}

/**
 * Starts the embed's authentication for the current location. The session parameter is
 * removed from the address bar whether or not the exchange succeeds.
 */
export async function startEmbedAuth(api: EmbedApi, location: Location, history: History): Promise<EmbedAuth> {
  const sessionId = readSessionParameter(location.search);
  if (!sessionId) return { mode: "private" };
  history.replaceState(history.state, "", withoutSessionParameters(location.href));
  return exchangeSession(api, sessionId);
}
