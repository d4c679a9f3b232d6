import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limit";

describe("createRateLimiter", () => {
  it("allows up to the limit per key and reports when the oldest event leaves the window", () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 3, windowMs: 10_000, now: () => now });
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfterSeconds("a")).toBe(0);
      limiter.record("a");
      now += 1000;
    }
    expect(limiter.retryAfterSeconds("a")).toBe(7);
    expect(limiter.retryAfterSeconds("b")).toBe(0);
    now = 10_001;
    expect(limiter.retryAfterSeconds("a")).toBe(0);
  });

  it("forgets a key on reset and bounds the number of keys kept", () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 2 });
    limiter.record("a");
    expect(limiter.retryAfterSeconds("a")).toBeGreaterThan(0);
    limiter.reset("a");
    expect(limiter.retryAfterSeconds("a")).toBe(0);
    limiter.record("x");
    limiter.record("y");
    limiter.record("z");
    expect(limiter.retryAfterSeconds("x")).toBe(0);
    expect(limiter.retryAfterSeconds("z")).toBeGreaterThan(0);
  });
});
