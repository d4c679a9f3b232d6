import { and, asc, eq, gt, lt } from "drizzle-orm";
import * as oauth from "openid-client";
import type { OAuthIntegration, OAuthIntegrationInput, OAuthIntegrationUpdate, UserOAuthConnection } from "../../../schema/oauth";
import type { AppDeps } from "../../context";
import type { Db } from "../../db/connection";
import { oauthIntegrations, oauthStates, userOauthTokens } from "../../db/schema";
import { pgError } from "../../db/pg-error";
import { hashBearerSecret, type SecretBox } from "../../crypto/secret-box";
import { badRequest, conflict, DomainError, forbidden, notFound } from "../../domain/errors";

type Row = typeof oauthIntegrations.$inferSelect;
type Deps = Pick<AppDeps, "db" | "secretBox" | "publicUrl" | "logger">;

/** How long an initiated authorization may take. */
const STATE_TTL_MS = 10 * 60 * 1000;
/** Tokens this close to expiry are refreshed before use. */
const REFRESH_MARGIN_MS = 60 * 1000;

export const callbackUrl = (publicUrl: string) => `${publicUrl.replace(/\/$/, "")}/api/v1/user-oauth-tokens/callback`;

function view(r: Row): OAuthIntegration {
  return {
    id: r.id,
    name: r.name,
    provider: r.provider,
    clientId: r.clientId,
    hasClientSecret: r.clientSecretEncrypted !== null,
    authorizationUrl: r.authorizationUrl,
    tokenUrl: r.tokenUrl,
    revocationUrl: r.revocationUrl,
    scopes: r.scopes,
    redirectUri: r.redirectUri,
    apiBaseUrl: r.apiBaseUrl,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const nameTaken = (name: string) => conflict(`An OAuth integration named ${name} exists`);

export async function listIntegrations(db: Db) {
  return (await db.select().from(oauthIntegrations).orderBy(asc(oauthIntegrations.id))).map(view);
}

async function integrationRow(db: Db, id: number): Promise<Row> {
  const [row] = await db.select().from(oauthIntegrations).where(eq(oauthIntegrations.id, id));
  if (!row) throw notFound("OAuth integration");
  return row;
}

export const getIntegration = async (db: Db, id: number) => view(await integrationRow(db, id));

export async function createIntegration(deps: Deps, input: OAuthIntegrationInput): Promise<OAuthIntegration> {
  try {
    const [row] = await deps.db
      .insert(oauthIntegrations)
      .values({
        name: input.name,
        provider: input.provider,
        clientId: input.clientId,
        clientSecretEncrypted: input.clientSecret ? deps.secretBox.seal(input.clientSecret) : null,
        authorizationUrl: input.authorizationUrl,
        tokenUrl: input.tokenUrl,
        revocationUrl: input.revocationUrl ?? null,
        scopes: input.scopes,
        redirectUri: input.redirectUri ?? callbackUrl(deps.publicUrl),
        apiBaseUrl: input.apiBaseUrl?.replace(/\/+$/, "") ?? null,
      })
      .returning();
    return view(row!);
  } catch (err) {
    if (pgError(err).code === "23505") throw nameTaken(input.name);
    throw err;
  }
}

export async function updateIntegration(deps: Deps, id: number, input: OAuthIntegrationUpdate): Promise<OAuthIntegration> {
  const set: Partial<Row> = { updatedAt: new Date() };
  for (const k of ["name", "provider", "clientId", "authorizationUrl", "tokenUrl", "revocationUrl", "scopes", "redirectUri"] as const) {
    if (input[k] !== undefined) (set as Record<string, unknown>)[k] = input[k];
  }
  if (input.apiBaseUrl !== undefined) set.apiBaseUrl = input.apiBaseUrl?.replace(/\/+$/, "") ?? null;
  if (input.clientSecret !== undefined) set.clientSecretEncrypted = input.clientSecret === null ? null : deps.secretBox.seal(input.clientSecret);
  try {
    const [row] = await deps.db.update(oauthIntegrations).set(set).where(eq(oauthIntegrations.id, id)).returning();
    if (!row) throw notFound("OAuth integration");
    return view(row);
  } catch (err) {
    if (pgError(err).code === "23505") throw nameTaken(input.name ?? "");
    throw err;
  }
}

/** Deletes the integration and every user's tokens for it (cascade). */
export async function deleteIntegration(db: Db, id: number) {
  const rows = await db.delete(oauthIntegrations).where(eq(oauthIntegrations.id, id)).returning({ id: oauthIntegrations.id });
  if (!rows.length) throw notFound("OAuth integration");
}

/** The client configuration of an integration for openid-client (no discovery: the endpoints are configured). */
function clientOf(row: Row, box: SecretBox) {
  const server: oauth.ServerMetadata = {
    issuer: new URL(row.authorizationUrl).origin,
    authorization_endpoint: row.authorizationUrl,
    token_endpoint: row.tokenUrl,
    ...(row.revocationUrl ? { revocation_endpoint: row.revocationUrl } : {}),
  };
  const secret = row.clientSecretEncrypted ? box.open(row.clientSecretEncrypted) : undefined;
  const config = new oauth.Configuration(server, row.clientId, secret, secret ? oauth.ClientSecretPost(secret) : oauth.None());
  // http endpoints pass validation only on loopback hosts (a local server).
  if ([row.authorizationUrl, row.tokenUrl, row.revocationUrl].some((u) => u?.startsWith("http:"))) oauth.allowInsecureRequests(config);
  return config;
}

/** Starts the authorization code flow with PKCE for the caller; the state is single-use and bound to them. */
export async function initiate(deps: Deps, userId: number, integrationId: number): Promise<{ authorizationUrl: string }> {
  const row = await integrationRow(deps.db, integrationId);
  const state = oauth.randomState();
  const verifier = oauth.randomPKCECodeVerifier();
  await deps.db.delete(oauthStates).where(lt(oauthStates.expiresAt, new Date()));
  await deps.db.insert(oauthStates).values({
    stateHash: hashBearerSecret(state),
    userId,
    integrationId,
    codeVerifierEncrypted: deps.secretBox.seal(verifier),
    expiresAt: new Date(Date.now() + STATE_TTL_MS),
  });
  const url = oauth.buildAuthorizationUrl(clientOf(row, deps.secretBox), {
    redirect_uri: row.redirectUri,
    scope: row.scopes.join(" "),
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  });
  return { authorizationUrl: url.href };
}

type TokenSet = { access_token: string; refresh_token?: string; token_type?: string; scope?: string; expires_in?: number };

async function storeTokens(db: Db, box: SecretBox, userId: number, integrationId: number, t: TokenSet, keepRefresh?: string | null) {
  const values = {
    accessTokenEncrypted: box.seal(t.access_token),
    refreshTokenEncrypted: t.refresh_token ? box.seal(t.refresh_token) : (keepRefresh ?? null),
    tokenType: (t.token_type ?? "bearer").toLowerCase(),
    scope: t.scope ?? null,
    expiresAt: typeof t.expires_in === "number" ? new Date(Date.now() + t.expires_in * 1000) : null,
    updatedAt: new Date(),
  };
  await db
    .insert(userOauthTokens)
    .values({ userId, integrationId, ...values })
    .onConflictDoUpdate({ target: [userOauthTokens.userId, userOauthTokens.integrationId], set: values });
}

/**
 * The redirect back from the authorization server: the state must be one the caller started
 * (and not expired or used); the code is exchanged with the PKCE verifier and the tokens are
 * sealed. Query is the callback's query string.
 */
export async function completeCallback(deps: Deps, userId: number, query: URLSearchParams): Promise<UserOAuthConnection> {
  const state = query.get("state");
  if (!state) throw badRequest("The callback has no state", [{ path: ["state"], message: "is required" }]);
  const hash = hashBearerSecret(state);
  const [claimed] = await deps.db
    .delete(oauthStates)
    .where(and(eq(oauthStates.stateHash, hash), eq(oauthStates.userId, userId), gt(oauthStates.expiresAt, new Date())))
    .returning();
  if (!claimed) {
    const [other] = await deps.db.select({ userId: oauthStates.userId }).from(oauthStates).where(eq(oauthStates.stateHash, hash));
    if (other) throw forbidden("This authorization was started by another user");
    throw badRequest("The state is unknown, expired or already used", [{ path: ["state"], message: "unknown, expired or used" }]);
  }
  const row = await integrationRow(deps.db, claimed.integrationId);
  const current = new URL(row.redirectUri);
  for (const [k, v] of query) current.searchParams.set(k, v);
  let tokens: TokenSet;
  try {
    tokens = (await oauth.authorizationCodeGrant(clientOf(row, deps.secretBox), current, {
      pkceCodeVerifier: deps.secretBox.open(claimed.codeVerifierEncrypted),
      expectedState: state,
      idTokenExpected: false,
    })) as TokenSet;
  } catch (err) {
    deps.logger.info("oauth code exchange refused", { integrationId: row.id, reason: err instanceof Error ? err.name : "unknown" });
    throw new DomainError("upstream_failed", `The authorization server of ${row.name} refused the authorization`);
  }
  await storeTokens(deps.db, deps.secretBox, userId, row.id, tokens);
  return getConnection(deps.db, userId, row.id);
}

export async function listConnections(db: Db, userId: number): Promise<UserOAuthConnection[]> {
  const rows = await db
    .select({ t: userOauthTokens, i: oauthIntegrations })
    .from(userOauthTokens)
    .innerJoin(oauthIntegrations, eq(oauthIntegrations.id, userOauthTokens.integrationId))
    .where(eq(userOauthTokens.userId, userId))
    .orderBy(asc(userOauthTokens.integrationId));
  return rows.map(({ t, i }) => ({
    integrationId: i.id,
    integrationName: i.name,
    provider: i.provider,
    scope: t.scope,
    expiresAt: t.expiresAt?.toISOString() ?? null,
    refreshable: t.refreshTokenEncrypted !== null,
    connectedAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  }));
}

export async function getConnection(db: Db, userId: number, integrationId: number): Promise<UserOAuthConnection> {
  const found = (await listConnections(db, userId)).find((c) => c.integrationId === integrationId);
  if (!found) throw notFound("OAuth connection");
  return found;
}

/**
 * The caller's access token for an integration (server-side only), refreshed first when it
 * expires within a minute. A refresh the server refuses ends the connection.
 */
export async function accessTokenFor(deps: Deps, userId: number, integrationId: number): Promise<string> {
  const row = await integrationRow(deps.db, integrationId);
  return deps.db.transaction(async (tx) => {
    // Locked: two requests needing a refresh at once refresh once (refresh tokens may rotate).
    const [t] = await tx
      .select()
      .from(userOauthTokens)
      .where(and(eq(userOauthTokens.userId, userId), eq(userOauthTokens.integrationId, integrationId)))
      .for("update");
    if (!t) throw new DomainError("oauth_reconnect_required", `Connect your ${row.name} account first (initiate)`);
    if (!t.expiresAt || t.expiresAt.getTime() - REFRESH_MARGIN_MS > Date.now()) return deps.secretBox.open(t.accessTokenEncrypted);
    if (!t.refreshTokenEncrypted) throw new DomainError("oauth_reconnect_required", `Your ${row.name} connection has expired; connect again`);
    let fresh: TokenSet;
    try {
      fresh = (await oauth.refreshTokenGrant(clientOf(row, deps.secretBox), deps.secretBox.open(t.refreshTokenEncrypted))) as TokenSet;
    } catch (err) {
      deps.logger.info("oauth refresh refused", { integrationId, reason: err instanceof Error ? err.name : "unknown" });
      await tx.delete(userOauthTokens).where(and(eq(userOauthTokens.userId, userId), eq(userOauthTokens.integrationId, integrationId)));
      throw new DomainError("oauth_reconnect_required", `Your ${row.name} connection was refused on refresh; connect again`);
    }
    await storeTokens(tx, deps.secretBox, userId, integrationId, fresh, t.refreshTokenEncrypted);
    return fresh.access_token;
  });
}

/** Revokes the caller's tokens at the server (when it has a revocation endpoint) and forgets them. */
export async function revokeConnection(deps: Deps, userId: number, integrationId: number): Promise<void> {
  const row = await integrationRow(deps.db, integrationId);
  const [t] = await deps.db
    .delete(userOauthTokens)
    .where(and(eq(userOauthTokens.userId, userId), eq(userOauthTokens.integrationId, integrationId)))
    .returning();
  if (!t) throw notFound("OAuth connection");
  if (!row.revocationUrl) return;
  const config = clientOf(row, deps.secretBox);
  const revoke = async (token: string, hint: string) => {
    try {
      await oauth.tokenRevocation(config, token, { token_type_hint: hint });
    } catch (err) {
      // The tokens are forgotten either way; the server's answer is only logged.
      deps.logger.warn("oauth revocation failed", { integrationId, reason: err instanceof Error ? err.name : "unknown" });
    }
  };
  if (t.refreshTokenEncrypted) await revoke(deps.secretBox.open(t.refreshTokenEncrypted), "refresh_token");
  await revoke(deps.secretBox.open(t.accessTokenEncrypted), "access_token");
}
