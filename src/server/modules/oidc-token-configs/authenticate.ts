import { and, eq } from "drizzle-orm";
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from "jose";
import type { Db } from "../../db/connection";
import { oidcTokenConfigs, users } from "../../db/schema";
import type { UserPrincipal } from "../../domain/actor";
import type { Logger } from "../../logger";
import { normalizeIssuer } from "./service";

/** Asymmetric algorithms only: never `none`, never a shared secret an issuer's public keys could forge. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

export interface WorkloadAuthOptions {
  db: Db;
  logger: Logger;
  /** Allowed clock difference, seconds (default 30). */
  clockToleranceSeconds?: number;
  /** Discovery and key fetches give up after this long (default 5 s). */
  fetchTimeoutMs?: number;
}

function claimMatches(actual: unknown, expected: string | number | boolean): boolean {
  if (Array.isArray(actual)) return actual.some((v) => v === expected);
  return actual === expected;
}

function audienceMatches(payload: JWTPayload, audience: string): boolean {
  const aud = payload.aud;
  return Array.isArray(aud) ? aud.includes(audience) : aud === audience;
}

/**
 * Verifies a workload's OIDC ID token: its `iss` must be a configured issuer, its signature
 * must verify against the keys that issuer publishes (discovery → `jwks_uri`), it must not be
 * expired, and its audience and every configured claim must match one config; the workload
 * then acts as that config's service user with its role. Anything else: null (a 401).
 */
export function createWorkloadAuthenticator(opts: WorkloadAuthOptions) {
  const timeoutDuration = opts.fetchTimeoutMs ?? 5000;
  const keySets = new Map<string, { at: number; jwks: ReturnType<typeof createRemoteJWKSet> }>();

  async function keysOf(issuer: string) {
    const cached = keySets.get(issuer);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.jwks;
    const res = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(timeoutDuration), redirect: "error" });
    if (!res.ok) throw new Error(`discovery answered ${res.status}`);
    const doc = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (typeof doc.issuer !== "string" || normalizeIssuer(doc.issuer) !== issuer) throw new Error("discovery names another issuer");
    if (typeof doc.jwks_uri !== "string") throw new Error("discovery has no jwks_uri");
    const jwks = createRemoteJWKSet(new URL(doc.jwks_uri), { timeoutDuration });
    keySets.set(issuer, { at: Date.now(), jwks });
    return jwks;
  }

  return async function authenticateWorkloadToken(token: string): Promise<UserPrincipal | null> {
    let issuer: string;
    try {
      const unverified = decodeJwt(token);
      if (typeof unverified.iss !== "string") return null;
      issuer = normalizeIssuer(unverified.iss);
    } catch {
      return null;
    }
    const configs = await opts.db.select().from(oidcTokenConfigs).where(eq(oidcTokenConfigs.issuer, issuer)).orderBy(oidcTokenConfigs.id);
    if (!configs.length) return null;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await keysOf(issuer), {
        issuer: [issuer, issuer + "/"],
        algorithms: ALGORITHMS,
        requiredClaims: ["exp"],
        clockTolerance: opts.clockToleranceSeconds ?? 30,
      }));
    } catch (err) {
      opts.logger.info("workload token refused", { issuer, reason: err instanceof Error ? err.name : "unknown" });
      return null;
    }
    const config = configs.find((c) => audienceMatches(payload, c.audience) && Object.entries(c.claims).every(([k, v]) => claimMatches(payload[k], v)));
    if (!config) {
      opts.logger.info("workload token refused", { issuer, reason: "no config matches its audience and claims" });
      return null;
    }
    const [user] = await opts.db
      .select()
      .from(users)
      .where(and(eq(users.id, config.userId), eq(users.status, "active")));
    if (!user) return null;
    return { kind: "user", userId: user.id, email: user.email, role: config.role, via: "oidc_token" };
  };
}
