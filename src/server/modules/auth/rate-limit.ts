import { createHash } from "node:crypto";
import type { RateLimitStore } from "../../cluster/rate-limit-store";

/** Options of a rate limiter. */
export interface RateLimiterOptions {
  /** Names the limit; keys of different limits never mix. */
  name: string;
  /** Events allowed per key within a window. */
  limit: number;
  /** Window length in milliseconds (counted in fixed windows, weighed as a sliding one). */
  windowMs: number;
  /** Where the counts live: Postgres or Redis, shared by every node; memory in unit tests. */
  store: RateLimitStore;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * Counts events per key (for example failed logins per IP and email) in a store every node
 * shares, so a limit holds however requests spread over the nodes. The count is a sliding
 * window's, estimated from two fixed ones: the current window's count plus the previous one's
 * weighted by how much of it the sliding window still covers. A burst across a window's edge
 * is therefore still one burst. Keys are hashed before they are stored: an email or an address
 * never sits in the counters in clear.
 */
export function createRateLimiter(opts: RateLimiterOptions) {
  const now = opts.now ?? Date.now;
  const keyOf = (key: string) => `${opts.name}:${createHash("sha256").update(key).digest("base64url").slice(0, 32)}`;

  return {
    /** Seconds until another event is allowed, or 0 when the key is under its limit. */
    async retryAfterSeconds(key: string): Promise<number> {
      const t = now();
      const w = opts.windowMs;
      const [current, previous] = await Promise.all([opts.store.peek(keyOf(key), w, t), opts.store.peek(keyOf(key), w, t - w)]);
      const start = current.resetAtMs - w;
      const covered = 1 - (t - start) / w; // the share of the previous window still in the sliding one
      if (previous.count * covered + current.count < opts.limit) return 0;
      // When does the estimate fall under the limit? Within this window if the previous one's
      // weight fading is enough; otherwise once this window becomes the previous one.
      const waitMs =
        current.count < opts.limit
          ? start + w * (1 - (opts.limit - current.count) / previous.count) - t
          : current.resetAtMs - t + w * (1 - opts.limit / current.count);
      return Math.max(1, Math.ceil(waitMs / 1000));
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
