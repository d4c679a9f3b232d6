import { createHash } from "node:crypto";
import type { RateLimitStore } from "../../cluster/rate-limit-store";

/** Options of a rate limiter. */
export interface RateLimiterOptions {
  /** Names the limit; keys of different limits never mix. */
  name: string;
  /** Events allowed per key within a window. */
  limit: number;
  /** Window length in milliseconds (fixed windows: `floor(now / windowMs)`). */
  windowMs: number;
  /** Where the counts live: Postgres or Redis, shared by every node; memory in unit tests. */
  store: RateLimitStore;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * Counts events per key (for example failed logins per IP and email) in a store every node
 * shares, so a limit holds however requests spread over the nodes. Keys are hashed before they
 * are stored: an email or an address never sits in the counters in clear.
 */
export function createRateLimiter(opts: RateLimiterOptions) {
  const now = opts.now ?? Date.now;
  const keyOf = (key: string) => `${opts.name}:${createHash("sha256").update(key).digest("base64url").slice(0, 32)}`;

  return {
    /** Seconds until another event is allowed, or 0 when the key is under its limit. */
    async retryAfterSeconds(key: string): Promise<number> {
      const t = now();
      const w = await opts.store.peek(keyOf(key), opts.windowMs, t);
      if (w.count < opts.limit) return 0;
      return Math.max(1, Math.ceil((w.resetAtMs - t) / 1000));
    },
    /** Counts one event; returns the count of the current window including it. */
    async record(key: string): Promise<number> {
      return (await opts.store.hit(keyOf(key), opts.windowMs, now())).count;
    },
    async reset(key: string): Promise<void> {
      await opts.store.reset(keyOf(key), opts.windowMs, now());
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
