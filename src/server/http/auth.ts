import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { authenticateApiKey, API_KEY_PREFIX } from "../modules/api-keys/service";
import type { AppEnv } from "./app-env";
import { csrfTokenMatches } from "../modules/auth/service";
import { DomainError, forbidden, notFound, unauthorized } from "../domain/errors";
import { hasRole, type Principal, type Role, type UserPrincipal } from "../domain/actor";
import { creatorActorOf } from "../modules/access/creator";

/** Name of the platform login cookie. */
export const LOGIN_COOKIE = "svc_session";

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/;

/**
 * Resolves the caller from `Authorization: Bearer …` (an API key, or a signed-embed token) or
 * from the platform login cookie, and stores it on the context. Rejecting is left to the
 * routes, so public endpoints stay public; a header that is present but bad is a 401 at once.
 */
export function authentication(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const deps = c.get("deps");
    let principal: Principal | null = null;
    const header = c.req.header("authorization");
    if (header !== undefined) {
      const m = BEARER.exec(header);
      if (!m) throw unauthorized("Authorization header must be 'Bearer <token>'");
      const token = m[1]!;
      if (token.startsWith(API_KEY_PREFIX)) {
        principal = await authenticateApiKey(deps.db, token);
        if (!principal) throw unauthorized("The API key is unknown, revoked or expired");
      } else if (deps.authenticateEmbedToken) {
        principal = await deps.authenticateEmbedToken(token);
      }
      // Not an API key nor an embed token: an OIDC ID token of a configured workload issuer.
      if (!principal && !token.startsWith(API_KEY_PREFIX) && deps.authenticateWorkloadToken) principal = await deps.authenticateWorkloadToken(token);
      if (!principal) throw unauthorized("The token is invalid or expired");
    } else if (deps.authenticateLoginToken) {
      const token = getCookie(c, LOGIN_COOKIE);
      principal = token ? await deps.authenticateLoginToken(token) : null;
      if (principal) requireCsrfToken(c, principal);
    }
    c.set("principal", principal);
    await next();
  };
}

/** Methods that change nothing and so need no CSRF token. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Header carrying the login session's CSRF token on cookie-authenticated writes. */
export const CSRF_HEADER = "x-csrf-token";
// Logging in (with a password or a one-time link) opens a new session; it never acts with the cookie it may replace.
const CSRF_EXEMPT_PATHS = new Set(["/api/v1/auth/login", "/api/v1/auth/sign-in-link"]);

/**
 * A cookie rides along on cross-site requests; a custom header with the session's token
 * cannot be set by another site, so every cookie-authenticated write must carry it.
 * API keys and embed tokens are sent explicitly and need none.
 */
function requireCsrfToken(c: Context<AppEnv>, principal: Principal) {
  if (SAFE_METHODS.has(c.req.method) || CSRF_EXEMPT_PATHS.has(c.req.path)) return;
  const expected = (principal as { csrfToken?: unknown }).csrfToken;
  if (typeof expected !== "string" || !csrfTokenMatches(expected, c.req.header(CSRF_HEADER))) {
    throw new DomainError("csrf_failed", "Missing or wrong X-CSRF-Token header for a cookie-authenticated write");
  }
}

export function requirePrincipal(c: Context<AppEnv>): Principal {
  const p = c.get("principal");
  if (!p) throw unauthorized();
  return p;
}

/** A platform user (API key or login); embed viewers are refused. */
export function requireUser(c: Context<AppEnv>, role: Role = "viewer"): UserPrincipal {
  const p = requirePrincipal(c);
  if (p.kind !== "user") throw forbidden("This operation needs a platform user");
  if (!hasRole(p, role)) throw forbidden(`This operation needs the role ${role} or higher`);
  return p;
}

/**
 * A platform user, or an embed user in creator mode acting as the `ai_bi_user` of their
 * tenant (modules/access/creator.ts) — in the deployment of their session only (another
 * answers 404, as if it did not exist). Other embed viewers are refused.
 */
export async function requireActor(c: Context<AppEnv>, deploymentId: number): Promise<UserPrincipal> {
  const p = requirePrincipal(c);
  if (p.kind === "user") return requireUser(c);
  if (p.deploymentId !== deploymentId) throw notFound("Deployment");
  return creatorActorOf(c.get("deps").db, p);
}
