import { randomBytes, timingSafeEqual } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { hashBearerSecret } from "../../crypto/secret-box";
import type { Db } from "../../db/connection";
import { DomainError } from "../../domain/errors";
import { loginSessions, signInLinks, users } from "../../db/schema";
import type { UserPrincipal } from "../../domain/actor";
import { createRateLimiter, type RateLimiter } from "./rate-limit";
import { rateLimitStoreFor, type RateLimitStore } from "../../cluster/rate-limit-store";
import { publishInvalidation } from "../../cluster/invalidation-bus";

export const DEFAULT_LOGIN_TTL_SECONDS = 12 * 60 * 60;
/** How long a one-time sign-in link can be used. */
export const SIGN_IN_LINK_TTL_MS = 60 * 60 * 1000;
/** The URL fragment carrying a sign-in link's token (`#sign-in=…`): a fragment never reaches a server, a log or a Referer. */
export const SIGN_IN_FRAGMENT = "sign-in";

/**
 * A one-time sign-in link for a user: a random token, of which only the SHA-256 is stored.
 * It opens one login session (`Login.signInWithLink`), once, within `ttlMs`. The token is
 * returned to be shown once; it is never logged.
 */
export async function createSignInLink(db: Db, userId: number, opts: { ttlMs?: number; now?: Date } = {}) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date((opts.now ?? new Date()).getTime() + (opts.ttlMs ?? SIGN_IN_LINK_TTL_MS));
  await db.insert(signInLinks).values({ tokenHash: hashBearerSecret(token), userId, expiresAt });
  return { token, expiresAt };
}

/** A private-mode URL that signs in with `token` on opening: the link's token rides in the fragment. */
export function signInUrl(pageUrl: string, token: string): string {
  return `${pageUrl}#${SIGN_IN_FRAGMENT}=${token}`;
}

/** A principal resolved from the login cookie; its CSRF token guards cookie-authenticated writes. */
export type CookiePrincipal = UserPrincipal & { via: "login_session"; csrfToken: string; loginSessionId: number; sessionExpiresAt: number };

/** Options of the login module (private-mode embedding). */
export interface LoginOptions {
  db: Db;
  /** Login session lifetime; default 12 hours. */
  sessionTtlSeconds?: number;
  /** Failed attempts allowed per IP and email within `rateWindowMs`; default 10. */
  maxFailuresPerEmail?: number;
  /** Failed attempts allowed per IP (any email) within `rateWindowMs`; default 100. */
  maxFailuresPerIp?: number;
  /** Default 15 minutes. */
  rateWindowMs?: number;
  /** Where failed attempts are counted; default the store of `db` (Postgres, or Redis when configured). */
  rateLimitStore?: RateLimitStore;
  now?: () => Date;
}

// Argon2id with the OWASP minimum (19 MiB, 2 passes): memory-hard, about 30 ms a hash.
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, ARGON2);

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/** `rate_limited`, saying when the caller may try again. */
function tooManyFailures(retryAfterSeconds: number) {
  return new DomainError("rate_limited", `Too many failed login attempts; try again in ${retryAfterSeconds} seconds`, { retryAfterSeconds });
}

export function createLogin(opts: LoginOptions) {
  const { db } = opts;
  const now = opts.now ?? (() => new Date());
  const ttlSeconds = opts.sessionTtlSeconds ?? DEFAULT_LOGIN_TTL_SECONDS;
  const windowMs = opts.rateWindowMs ?? 15 * 60 * 1000;
  const store = opts.rateLimitStore ?? rateLimitStoreFor(db);
  const clock = () => now().getTime();
  const perEmail: RateLimiter = createRateLimiter({ name: "login-email", limit: opts.maxFailuresPerEmail ?? 10, windowMs, store, now: clock });
  const perIp: RateLimiter = createRateLimiter({ name: "login-ip", limit: opts.maxFailuresPerIp ?? 100, windowMs, store, now: clock });
  // Verifying against a real hash when the user does not exist keeps the timing the same.
  let decoyHash: Promise<string> | null = null;
  const decoy = () => (decoyHash ??= hashPassword(randomBytes(16).toString("hex")));

  /**
   * Checks the password and opens a login session. Returns null for any wrong credential
   * (unknown email, no password set, inactive user, wrong password) so callers cannot tell
   * which; throws `rate_limited` once the IP+email or the IP has too many failures.
   */
  async function login(input: { email: string; password: string; ip: string }) {
    const email = input.email.trim().toLowerCase();
    const emailKey = `${input.ip}|${email}`;
    const wait = Math.max(await perEmail.retryAfterSeconds(emailKey), await perIp.retryAfterSeconds(input.ip));
    if (wait > 0) throw tooManyFailures(wait);
    const [user] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`);
    const ok = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : (await verifyPassword(await decoy(), input.password), false);
    if (!user || !ok || user.status !== "active") {
      await Promise.all([perEmail.record(emailKey), perIp.record(input.ip)]);
      return null;
    }
    await perEmail.reset(emailKey);
    return { ...(await openSession(user.id)), user };
  }

  async function openSession(userId: number) {
    const token = randomBytes(32).toString("base64url");
    const csrfToken = randomBytes(24).toString("base64url");
    const expiresAt = new Date(now().getTime() + ttlSeconds * 1000);
    await db.insert(loginSessions).values({ tokenHash: hashBearerSecret(token), userId, csrfToken, expiresAt });
    return { token, csrfToken, expiresAt };
  }

  /**
   * Uses a one-time sign-in link: marks it used (one statement, so two concurrent uses cannot
   * both pass) and opens a login session for its user. Null for a token that is unknown, used,
   * expired, or whose user is inactive; failures count against the address like failed logins.
   */
  async function signInWithLink(input: { token: string; ip: string }) {
    const wait = await perIp.retryAfterSeconds(input.ip);
    if (wait > 0) throw tooManyFailures(wait);
    const [link] =
      input.token.length >= 20 && input.token.length <= 200
        ? await db
            .update(signInLinks)
            .set({ usedAt: now() })
            .where(and(eq(signInLinks.tokenHash, hashBearerSecret(input.token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now())))
            .returning({ userId: signInLinks.userId })
        : [];
    const [user] = link ? await db.select().from(users).where(eq(users.id, link.userId)) : [];
    if (!user || user.status !== "active") {
      await perIp.record(input.ip);
      return null;
    }
    return { ...(await openSession(user.id)), user };
  }

  /** Resolves a login session token to its user; null when unknown, expired, revoked or the user is inactive. */
  async function authenticateLoginToken(token: string): Promise<CookiePrincipal | null> {
    if (!token || token.length > 200) return null;
    const [row] = await db
      .select({ session: loginSessions, user: users })
      .from(loginSessions)
      .innerJoin(users, eq(users.id, loginSessions.userId))
      .where(and(eq(loginSessions.tokenHash, hashBearerSecret(token)), isNull(loginSessions.revokedAt), gt(loginSessions.expiresAt, now())));
    if (!row || row.user.status !== "active") return null;
    return {
      kind: "user",
      userId: row.user.id,
      email: row.user.email,
      role: row.user.role,
      via: "login_session",
      csrfToken: row.session.csrfToken,
      loginSessionId: row.session.id,
      sessionExpiresAt: row.session.expiresAt.getTime(),
    };
  }

  /** Ends the session of this cookie token (idempotent). */
  async function logout(token: string | undefined) {
    if (!token) return;
    const rows = await db
      .update(loginSessions)
      .set({ revokedAt: now() })
      .where(and(eq(loginSessions.tokenHash, hashBearerSecret(token)), isNull(loginSessions.revokedAt)))
      .returning({ userId: loginSessions.userId });
    for (const row of rows) await publishInvalidation(db, "login-session", row.userId);
  }

  /**
   * Sets a user's password and ends their other login sessions (a changed password must lock
   * out whoever knew the old one). `keepSessionId` is the caller's own session, kept open.
   */
  async function setPassword(userId: number, password: string, keepSessionId?: number) {
    const passwordHash = await hashPassword(password);
    await db.update(users).set({ passwordHash, updatedAt: now() }).where(eq(users.id, userId));
    await db
      .update(loginSessions)
      .set({ revokedAt: now() })
      .where(and(eq(loginSessions.userId, userId), isNull(loginSessions.revokedAt), keepSessionId ? ne(loginSessions.id, keepSessionId) : undefined));
    await publishInvalidation(db, "login-session", userId);
  }

  return { login, signInWithLink, authenticateLoginToken, logout, setPassword, ttlSeconds };
}
export type Login = ReturnType<typeof createLogin>;

/** Constant-time comparison of a presented CSRF token with the session's. */
export function csrfTokenMatches(expected: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

// One login module per database: the cookie hook (platform-services) and the auth routes must
// share the failed-attempt counters, and one process serves one account.
const loginsByDb = new WeakMap<Db, Login>();

/** The login module of this database, created with `opts` on first use. */
export function loginFor(db: Db, opts: Omit<LoginOptions, "db"> = {}): Login {
  let login = loginsByDb.get(db);
  if (!login) {
    login = createLogin({ ...opts, db });
    loginsByDb.set(db, login);
  }
  return login;
}
