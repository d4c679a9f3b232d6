import { describe, expect, it } from "vitest";
import { createMemoryRateLimitStore } from "../../cluster/rate-limit-store";
import { createRateLimiter } from "./rate-limit";

describe("createRateLimiter", () => {
  it("allows up to the limit per key and reports when the window ends", async () => {
    let now = 0;
    const limiter = createRateLimiter({ name: "t", limit: 3, windowMs: 10_000, now: () => now, store: createMemoryRateLimitStore() });
    for (let i = 0; i < 3; i++) {
      expect(await limiter.retryAfterSeconds("a")).toBe(0);
      await limiter.record("a");
      now += 1000;
    }
    expect(await limiter.retryAfterSeconds("a")).toBe(7);
    expect(await limiter.retryAfterSeconds("b")).toBe(0);
    now = 10_001;
    expect(await limiter.retryAfterSeconds("a")).toBe(0);
  });

  it("limits a burst that straddles the edge of two windows", async () => {
    let now = 9_000;
    const limiter = createRateLimiter({ name: "t", limit: 4, windowMs: 10_000, now: () => now, store: createMemoryRateLimitStore() });
    await limiter.record("a");
    await limiter.record("a");
    await limiter.record("a");
    now = 10_500; // the next fixed window: two more are one burst with the three before
    await limiter.record("a");
    await limiter.record("a");
    const wait = await limiter.retryAfterSeconds("a");
    expect(wait).toBeGreaterThan(0);
    // Once the previous window's weight has faded enough, one more is allowed.
    now += wait * 1000;
    expect(await limiter.retryAfterSeconds("a")).toBe(0);
  });

  it("forgets a key on reset and bounds the number of keys kept", async () => {
    const limiter = createRateLimiter({ name: "t", limit: 1, windowMs: 60_000, store: createMemoryRateLimitStore({ maxKeys: 2 }) });
    await limiter.record("a");
    expect(await limiter.retryAfterSeconds("a")).toBeGreaterThan(0);
    await limiter.reset("a");
    expect(await limiter.retryAfterSeconds("a")).toBe(0);
    await limiter.record("x");
    await limiter.record("y");
    await limiter.record("z");
    expect(await limiter.retryAfterSeconds("x")).toBe(0);
    expect(await limiter.retryAfterSeconds("z")).toBeGreaterThan(0);
  });

  it("keeps the limits of different names apart", async () => {
    const store = createMemoryRateLimitStore();
    const a = createRateLimiter({ name: "a", limit: 1, windowMs: 60_000, store });
    const b = createRateLimiter({ name: "b", limit: 1, windowMs: 60_000, store });
    await a.record("k");
    expect(await a.retryAfterSeconds("k")).toBeGreaterThan(0);
    expect(await b.retryAfterSeconds("k")).toBe(0);
  });
});
