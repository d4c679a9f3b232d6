import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { hashBearerSecret } from "../../crypto/secret-box";
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from "jose";
import type { GenerateSessionInput } from "../../../schema/embed-session";
import { grantedExportFormats, type ExportFormat } from "../../../schema/export-grants";
import { isSingleProcessStore, type Db } from "../../db/connection";
import { deployments, embedSessions, embedUsers } from "../../db/schema";
import { notFound, unauthorized } from "../../domain/errors";
import type { EmbedPrincipal } from "../../domain/actor";
import { syncTenantGroups, upsertEmbedTenant } from "../embed-tenants/service";
import type { SigningKeyRing } from "./signing-keys";
import { checkUserAttributeValues } from "../user-attributes/service";
import { onInvalidation, publishInvalidation } from "../../cluster/invalidation-bus";
import { createRequestCache, embedSessionStateCache, invalidateEmbedSessionStates } from "../../domain/request-caches";
import { readEmbedTokenLifetimeSeconds } from "../tenant-settings/service";

/** A session id can be exchanged once, within this time. */
export const SESSION_EXCHANGE_TTL_MS = 5 * 60 * 1000;
/** Upper bound of an embed token's life. */
export const MAX_TOKEN_TTL_SECONDS = 24 * 60 * 60;
/** Embed users created without a tenant live in this tenant; their `embedTenant` stays null. */
export const DEFAULT_EMBED_TENANT = "default";

const TOKEN_ISSUER = "svc";
const TOKEN_AUDIENCE = "svc-embed";

export interface EmbedSessionOptions {
  db: Db;
  keys: SigningKeyRing;
  /** Token lifetime; at most MAX_TOKEN_TTL_SECONDS. */
  tokenTtlSeconds?: number;
  now?: () => Date;
}

/** How long this node keeps a token's checked signature and claims (never past the token's expiry). */
const SIGNED_TOKEN_TTL_MS = 60_000;

export function createEmbedSessions(opts: EmbedSessionOptions) {
  const { db, keys } = opts;
  const now = opts.now ?? (() => new Date());
  const ttl = Math.min(opts.tokenTtlSeconds ?? MAX_TOKEN_TTL_SECONDS, MAX_TOKEN_TTL_SECONDS);

  /**
   * Validated input → a single-use session id (only its hash is stored). The embed user, the
   * tenant and its groups are created or updated from the request; user attributes must be
   * defined and fit their types. Nothing is written when anything is refused.
   */
  async function generate(input: GenerateSessionInput): Promise<{ sessionId: string; expiresAt: string }> {
    const [dep] = await db.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, input.deploymentId));
    if (!dep) throw notFound("Deployment");
    const attributes = input.userAttributes ?? [];
    if (attributes.length) await checkUserAttributeValues(db, attributes, ["userAttributes"]);
    const sessionId = randomBytes(32).toString("base64url");
    const expiresAt = new Date(now().getTime() + SESSION_EXCHANGE_TTL_MS);
    await db.transaction(async (txn) => {
      const tx = txn;
      let embedUserId: number | null = null;
      let tenantId: number | null = null;
      if (input.externalId || input.embedTenantName) {
        tenantId = (await upsertEmbedTenant(tx, input.embedTenantName ?? DEFAULT_EMBED_TENANT, input.embedTenantProfile?.displayName)).id;
      }
      if (input.externalId && tenantId !== null) {
        const attrs = Object.fromEntries(attributes.map((a) => [a.name, a.value]));
        const values = {
          tenantId,
          externalId: input.externalId,
          email: input.email ?? null,
          displayName: input.userProfile?.displayName ?? null,
          picture: input.userProfile?.picture ?? null,
          userAttributes: attrs,
          lastSeenAt: now(),
        };
        const [user] = await tx
          .insert(embedUsers)
          .values(values)
          .onConflictDoUpdate({
            target: [embedUsers.tenantId, embedUsers.externalId],
            set: {
              email: values.email,
              displayName: values.displayName,
              picture: values.picture,
              userAttributes: attrs,
              lastSeenAt: values.lastSeenAt,
              updatedAt: now(),
            },
          })
          .returning({ id: embedUsers.id });
        embedUserId = user!.id;
      }
      if (tenantId !== null && input.embedTenantName) {
        await syncTenantGroups(tx, tenantId, embedUserId, input.tenantGroupDefinitions ?? [], input.tenantGroups);
      }
      await tx.insert(embedSessions).values({
        sessionHash: hashBearerSecret(sessionId),
        deploymentId: input.deploymentId,
        embedUserId,
        request: input,
        expiresAt,
      });
    });
    return { sessionId, expiresAt: expiresAt.toISOString() };
  }

  /** Exchanges a session id for a signed token, once; unknown, expired, used or revoked → 401. */
  async function exchange(
    sessionId: string,
  ): Promise<{ token: string; expiresAt: string; deploymentId: number; embedTenant: string | null; exportFormats: ExportFormat[] }> {
    const t = now();
    // The tenant's embed token lifetime (tenant settings), never above this server's.
    const lifetime = Math.min(ttl, await readEmbedTokenLifetimeSeconds(db));
    const [row] = await db
      .update(embedSessions)
      .set({ exchangedAt: t, tokenExpiresAt: new Date(t.getTime() + lifetime * 1000) })
      .where(
        and(
          eq(embedSessions.sessionHash, hashBearerSecret(sessionId)),
          isNull(embedSessions.exchangedAt),
          isNull(embedSessions.revokedAt),
          gt(embedSessions.expiresAt, t),
        ),
      )
      .returning();
    if (!row) throw unauthorized("The session is unknown, expired, already used or revoked");
    const request = row.request;
    const key = await keys.current();
    const exp = Math.floor(t.getTime() / 1000) + lifetime;
    const token = await new SignJWT({
      sid: row.id,
      dep: row.deploymentId,
      ten: request.embedTenantName ?? null,
      eu: row.embedUserId,
      grp: [...(request.groups ?? []), ...(request.tenantGroups ?? [])],
      attrs: Object.fromEntries((request.userAttributes ?? []).map((a) => [a.name, a.value])),
      ctx: request.securityContext ?? {},
      set: request.settings ?? {},
      ...(request.creatorMode ? { cm: request.creatorMode } : {}),
    })
      .setProtectedHeader({ alg: "HS256", kid: key.id, typ: "JWT" })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(request.externalId ?? `session:${row.id}`)
      .setIssuedAt(Math.floor(t.getTime() / 1000))
      .setExpirationTime(exp)
      .sign(key.secret);
    return {
      token,
      expiresAt: new Date(exp * 1000).toISOString(),
      deploymentId: row.deploymentId,
      embedTenant: request.embedTenantName ?? null,
      exportFormats: grantedExportFormats(request.settings?.allowExport),
    };
  }

  /** Idempotent. A revoked session's token stops working at once. */
  async function revoke(sessionId: string): Promise<void> {
    const rows = await db
      .update(embedSessions)
      .set({ revokedAt: now() })
      .where(and(eq(embedSessions.sessionHash, hashBearerSecret(sessionId)), isNull(embedSessions.revokedAt)))
      .returning({ id: embedSessions.id });
    invalidateEmbedSessionStates();
    for (const row of rows) await publishInvalidation(db, "embed-session", row.id);
  }

  /**
   * Tokens whose signature and claims this node checked, until they expire: the check is the
   * same every time, and an embed repeats its token on every request. A rotated or retired
   * signing key (on any node) drops them all. Revocation is never cached: every request reads
   * the session's row, so a session revoked on one node is refused on every node at once.
   */
  const signed = createRequestCache<JWTPayload>(SIGNED_TOKEN_TTL_MS, () => now().getTime());
  onInvalidation(db, "signing-key", () => signed.invalidate());

  /** The token's claims when its signature (by key id, HS256 only), issuer, audience and expiry hold. */
  async function verifiedClaims(token: string): Promise<JWTPayload> {
    const known = signed.get(db, token);
    if (known && (known.exp ?? 0) * 1000 > now().getTime()) return known;
    const readAt = signed.generation();
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        const key = header.kid ? await keys.byId(header.kid) : null;
        if (!key) throw new joseErrors.JWKSNoMatchingKey();
        return key.secret;
      },
      { algorithms: ["HS256"], issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE, currentDate: now() },
    );
    signed.set(db, token, payload, readAt);
    return payload;
  }

  /** A session's revocation and deployment, as a statement prepared once. */
  const sessionState = db
    .select({ revokedAt: embedSessions.revokedAt, deploymentId: embedSessions.deploymentId })
    .from(embedSessions)
    .where(eq(embedSessions.id, sql.placeholder("sid")))
    .prepare("embed_session_state");
  /**
   * Read on every request from a Postgres server (a session revoked on one node is refused on
   * every node at once); kept per process on embedded storage, where only this process writes
   * and every revocation or removal invalidates it before it returns (embedSessionStateCache).
   */
  const cacheStates = isSingleProcessStore(db);

  async function stateOf(sid: number): Promise<{ revokedAt: Date | null; deploymentId: number } | undefined> {
    if (!cacheStates) return (await sessionState.execute({ sid }))[0];
    const known = embedSessionStateCache.get(db, sid);
    if (known) return known;
    const readAt = embedSessionStateCache.generation();
    const [row] = await sessionState.execute({ sid });
    if (row) embedSessionStateCache.set(db, sid, row, readAt);
    return row;
  }

  /** Verifies a token (signature by key id, HS256 only, issuer, audience, expiry, not revoked). */
  async function authenticate(token: string): Promise<EmbedPrincipal | null> {
    try {
      const payload = await verifiedClaims(token);
      const sid = payload.sid;
      if (typeof sid !== "number") return null;
      const row = await stateOf(sid);
      if (!row || row.revokedAt || row.deploymentId !== payload.dep) return null;
      return {
        kind: "embed",
        sessionId: sid,
        deploymentId: row.deploymentId,
        embedTenant: (payload.ten as string | null) ?? null,
        embedUserId: (payload.eu as number | null) ?? null,
        externalId: payload.sub?.startsWith("session:") ? null : (payload.sub ?? null),
        groups: (payload.grp as string[]) ?? [],
        userAttributes: (payload.attrs as EmbedPrincipal["userAttributes"]) ?? {},
        securityContext: (payload.ctx as Record<string, unknown>) ?? {},
        settings: (payload.set as Record<string, unknown>) ?? {},
        ...(payload.cm ? { creatorMode: payload.cm as EmbedPrincipal["creatorMode"] } : {}),
        expiresAt: (payload.exp ?? 0) * 1000,
      };
    } catch {
      return null;
    }
  }

  return { generate, exchange, revoke, authenticate, keys };
}
export type EmbedSessions = ReturnType<typeof createEmbedSessions>;
