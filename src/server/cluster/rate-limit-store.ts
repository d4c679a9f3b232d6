import { and, eq, sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { Db } from "../db/connection";
import { rateLimitCounters } from "../db/schema";

/** The count of one key in the fixed window holding `nowMs`, and when that window ends. */
export interface WindowCount {
  count: number;
  resetAtMs: number;
}

/**
 * Where rate-limit counters live. Counters are per fixed window (`floor(now / window)`), so
 * every node that shares the store counts into the same window; a window's counter is kept
 * through the next window, where the limiter still weighs it. Keys arrive hashed.
 */
export interface RateLimitStore {
  readonly kind: "memory" | "postgres" | "redis";
  /** Counts one event and returns the window's count including it. */
  hit(key: string, windowMs: number, nowMs: number): Promise<WindowCount>;
  /** The window's count, without counting. */
  peek(key: string, windowMs: number, nowMs: number): Promise<WindowCount>;
  /** Forgets the key's counts (its current and previous windows at least). */
  reset(key: string, windowMs: number, nowMs: number): Promise<void>;
  close?(): Promise<void>;
}

const windowOf = (windowMs: number, nowMs: number) => {
  const start = Math.floor(nowMs / windowMs) * windowMs;
  return { start, end: start + windowMs };
};

/** Counters in the platform database: shared by every node on it (and by PGlite's one node). */
export function createPostgresRateLimitStore(db: Db): RateLimitStore {
  return {
    kind: "postgres",
    async hit(key, windowMs, nowMs) {
      const w = windowOf(windowMs, nowMs);
      const [row] = await db
        .insert(rateLimitCounters)
        .values({ key, windowStart: new Date(w.start), count: 1, expiresAt: new Date(w.end + windowMs) })
        .onConflictDoUpdate({ target: [rateLimitCounters.key, rateLimitCounters.windowStart], set: { count: sql`${rateLimitCounters.count} + 1` } })
        .returning({ count: rateLimitCounters.count });
      return { count: row!.count, resetAtMs: w.end };
    },
    async peek(key, windowMs, nowMs) {
      const w = windowOf(windowMs, nowMs);
      const [row] = await db
        .select({ count: rateLimitCounters.count })
        .from(rateLimitCounters)
        .where(and(eq(rateLimitCounters.key, key), eq(rateLimitCounters.windowStart, new Date(w.start))));
      return { count: row?.count ?? 0, resetAtMs: w.end };
    },
    async reset(key) {
      await db.delete(rateLimitCounters).where(eq(rateLimitCounters.key, key));
    },
  };
}

/** Counters in Redis (`REDIS_URL`): one INCR per event, each window's key expiring with it. */
export function createRedisRateLimitStore(url: string, opts: { prefix?: string } = {}): RateLimitStore {
  const prefix = opts.prefix ?? "svc:rl:";
  // Commands wait for a reconnect instead of failing at once; a dead Redis fails them after 5 s.
  // The client is loaded with the store (only where REDIS_URL is set), not with the server.
  const client: Promise<Redis> = import("ioredis").then(({ Redis }) => {
    const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, connectTimeout: 5000, enableOfflineQueue: true });
    redis.on("error", () => {});
    return redis;
  });
  client.catch(() => {});
  const k = (key: string, start: number) => `${prefix}${key}:${start}`;
  return {
    kind: "redis",
    async hit(key, windowMs, nowMs) {
      const w = windowOf(windowMs, nowMs);
      const res = await (
        await client
      )
        .multi()
        .incr(k(key, w.start))
        .pexpireat(k(key, w.start), w.end + windowMs + 1000)
        .exec();
      const [err, count] = res?.[0] ?? [new Error("redis transaction aborted"), 0];
      if (err) throw err;
      return { count: Number(count), resetAtMs: w.end };
    },
    async peek(key, windowMs, nowMs) {
      const w = windowOf(windowMs, nowMs);
      return { count: Number((await (await client).get(k(key, w.start))) ?? 0), resetAtMs: w.end };
    },
    async reset(key, windowMs, nowMs) {
      const start = windowOf(windowMs, nowMs).start;
      await (await client).del(k(key, start), k(key, start - windowMs));
    },
    async close() {
      const redis = await client.catch(() => null);
      await redis?.quit().catch(() => redis.disconnect());
    },
  };
}

/** Counters in this process only (tests, and tools that run without storage). */
export function createMemoryRateLimitStore(opts: { maxKeys?: number } = {}): RateLimitStore {
  const maxKeys = opts.maxKeys ?? 100_000;
  // One entry per key and window; the oldest go first, so memory stays bounded under a flood.
  const counters = new Map<string, number>();
  const k = (key: string, start: number) => `${key}\u0000${start}`;
  return {
    kind: "memory",
    async hit(key, windowMs, nowMs) {
      const w = windowOf(windowMs, nowMs);
      const count = (counters.get(k(key, w.start)) ?? 0) + 1;
      counters.delete(k(key, w.start));
      counters.set(k(key, w.start), count);
      while (counters.size > maxKeys) counters.delete(counters.keys().next().value!);
      return { count, resetAtMs: w.end };
    },
    async peek(key, windowMs, nowMs) {
      const w = windowOf(windowMs, nowMs);
      return { count: counters.get(k(key, w.start)) ?? 0, resetAtMs: w.end };
    },
    async reset(key, windowMs, nowMs) {
      const start = windowOf(windowMs, nowMs).start;
      counters.delete(k(key, start));
      counters.delete(k(key, start - windowMs));
    },
  };
}

const storesByDb = new WeakMap<Db, RateLimitStore>();

/** The rate-limit store of this database handle: the one set by `setRateLimitStore`, else the database itself. */
export function rateLimitStoreFor(db: Db): RateLimitStore {
  let store = storesByDb.get(db);
  if (!store) {
    store = createPostgresRateLimitStore(db);
    storesByDb.set(db, store);
  }
  return store;
}

/** Makes every rate limiter on this database handle count in `store` (Redis, say). Call before serving. */
export function setRateLimitStore(db: Db, store: RateLimitStore) {
  storesByDb.set(db, store);
}
