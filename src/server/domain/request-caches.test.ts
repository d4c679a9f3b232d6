import { describe, expect, it } from "vitest";
import { createRequestCache } from "./request-caches";

describe("request caches", () => {
  it("keeps entries per database handle, for their time to live only", () => {
    let now = 0;
    const cache = createRequestCache<string>(1000, () => now);
    const a = {};
    const b = {};
    cache.set(a, "k", "from a", cache.generation());
    expect(cache.get(a, "k")).toBe("from a");
    expect(cache.get(b, "k")).toBeUndefined();
    now = 1001;
    expect(cache.get(a, "k")).toBeUndefined();
  });

  it("forgets everything on invalidation, and never keeps a value read before one", () => {
    const cache = createRequestCache<string>(60_000);
    const db = {};
    cache.set(db, 1, "old", cache.generation());
    const readAt = cache.generation();
    cache.invalidate();
    expect(cache.get(db, 1)).toBeUndefined();
    // A read that started before the write must not repopulate the cache with what it saw.
    cache.set(db, 1, "stale", readAt);
    expect(cache.get(db, 1)).toBeUndefined();
    cache.set(db, 1, "fresh", cache.generation());
    expect(cache.get(db, 1)).toBe("fresh");
  });
});
