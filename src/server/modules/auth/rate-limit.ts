/** Options of an in-memory sliding-window limiter. */
export interface RateLimiterOptions {
  /** Events allowed per key within the window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
  /** Clock, for tests. */
  now?: () => number;
  /** Keys kept at most; the oldest are dropped first so memory stays bounded under a flood. */
  maxKeys?: number;
}

/**
 * Counts events per key (for example failed logins per IP and email) in memory. One process
 * serves one account, so memory is the right place: nothing to clean up on restart.
 */
export function createRateLimiter(opts: RateLimiterOptions) {
  const now = opts.now ?? Date.now;
  const maxKeys = opts.maxKeys ?? 100_000;
  const hits = new Map<string, number[]>();

  const recent = (key: string): number[] => {
    const cutoff = now() - opts.windowMs;
    const list = (hits.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) hits.set(key, list);
    else hits.delete(key);
    return list;
  };

  return {
    /** Seconds until another event is allowed, or 0 when the key is under its limit. */
    retryAfterSeconds(key: string): number {
      const list = recent(key);
      if (list.length < opts.limit) return 0;
      return Math.max(1, Math.ceil((list[list.length - opts.limit]! + opts.windowMs - now()) / 1000));
    },
    record(key: string): void {
      const list = recent(key);
      list.push(now());
      hits.delete(key);
      hits.set(key, list);
      if (hits.size > maxKeys) hits.delete(hits.keys().next().value!);
    },
    reset(key: string): void {
      hits.delete(key);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
