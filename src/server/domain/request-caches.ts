/**
 * In-process caches of the work every authenticated request repeats: the API key → principal
 * lookup, a platform user's security context (groups and attributes) and a developer's dev-mode
 * branch (read by every query of a developer or admin). Entries live per
 * database handle, for a short time at most, and every write that could change them calls the
 * cache's invalidation function, which drops every entry at once (transactions included: the
 * generation is global). On several nodes, a node's invalidation must reach the others: the
 * two functions below are the points to hook to that broadcast.
 */

export interface RequestCache<V> {
  get(db: object, key: string | number): V | undefined;
  /** The cache's generation, taken before reading what will be cached. */
  generation(): number;
  /** Keeps `value` unless an invalidation came after `readAt` (a write raced the read). */
  set(db: object, key: string | number, value: V, readAt: number): void;
  /** Forgets every entry (of every database handle). */
  invalidate(): void;
}

/** Largest number of entries kept per database handle (oldest dropped first). */
const MAX_ENTRIES = 10_000;

export function createRequestCache<V>(ttlMs: number, now: () => number = Date.now): RequestCache<V> {
  let generation = 0;
  const stores = new WeakMap<object, Map<string | number, { value: V; at: number; generation: number }>>();
  return {
    get(db, key) {
      const entry = stores.get(db)?.get(key);
      if (!entry || entry.generation !== generation || now() - entry.at > ttlMs) return undefined;
      return entry.value;
    },
    generation: () => generation,
    set(db, key, value, readAt) {
      if (readAt !== generation) return;
      let store = stores.get(db);
      if (!store) stores.set(db, (store = new Map()));
      if (store.size >= MAX_ENTRIES) store.delete(store.keys().next().value!);
      store.set(key, { value, at: now(), generation });
    },
    invalidate() {
      generation += 1;
    },
  };
}

/** API key (by token hash) → the principal it authenticates, with the key's expiry. */
export const apiKeyPrincipalCache = createRequestCache<{ principal: unknown; expiresAt: number | null; lastUsedAt: number | null }>(30_000);
/** Platform user id → security context (groups, attributes, role). */
export const userSecurityContextCache = createRequestCache<unknown>(30_000);
/** `deploymentId:userId` → the user's dev-mode branch there, or null. */
export const devModeCache = createRequestCache<string | null>(30_000);

/**
 * Embed session id → its revocation and deployment, kept only on embedded storage
 * (`isSingleProcessStore`): there every write that revokes or removes a session is this
 * process's own, and calls `invalidateEmbedSessionStates` before it returns. On a Postgres server
 * the state is read on every request, so that a revocation on one node is refused on every node
 * at once (no announcement is awaited).
 */
export const embedSessionStateCache = createRequestCache<{ revokedAt: Date | null; deploymentId: number }>(30_000);

/** Call after any write that revokes or removes embed sessions (a revocation, a tenant's or deployment's deletion). */
export function invalidateEmbedSessionStates(): void {
  embedSessionStateCache.invalidate();
}

const CACHE_NAMES = ["api-key-principals", "security-contexts", "dev-modes"] as const;
export type RequestCacheName = (typeof CACHE_NAMES)[number];

/**
 * Tells the other nodes that a cache of this node was invalidated (set by the platform to the
 * invalidation bus, docs/scaling.md); without it, a revoked key would keep working on another
 * node until its entry expired.
 */
let announce: ((name: RequestCacheName) => void) | null = null;
export function announceRequestCacheInvalidations(fn: ((name: RequestCacheName) => void) | null): void {
  announce = fn;
}

/** Drops this node's entries only: what a notification from another node does (null or a name this node does not know: all of them). */
export function dropRequestCache(name: RequestCacheName | null): void {
  const all = name === null || !CACHE_NAMES.includes(name);
  if (all || name === "api-key-principals") apiKeyPrincipalCache.invalidate();
  if (all || name === "security-contexts") userSecurityContextCache.invalidate();
  if (all || name === "dev-modes") devModeCache.invalidate();
}

/** Call after any change to API keys or to users (role, status, deletion). */
export function invalidateApiKeyPrincipals(): void {
  apiKeyPrincipalCache.invalidate();
  announce?.("api-key-principals");
}

/** Call after any change to users, groups, group members, user attributes or their values. */
export function invalidateSecurityContexts(): void {
  userSecurityContextCache.invalidate();
  announce?.("security-contexts");
}

/** Call after any change to dev modes (entered, left, their branch removed). */
export function invalidateDevModes(): void {
  devModeCache.invalidate();
  announce?.("dev-modes");
}
