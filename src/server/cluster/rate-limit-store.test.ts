import { randomBytes } from "node:crypto";
import { createConnection } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/connection";
import { createLogin } from "../modules/auth/service";
import { createRateLimiter } from "../modules/auth/rate-limit";
import { users } from "../db/schema";
import { pgliteFromTemplate } from "../testing/storage-template";
import { createScratchPostgres } from "../testing/test-platform";
import { createPostgresRateLimitStore, createRedisRateLimitStore, type RateLimitStore } from "./rate-limit-store";

const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** Whether a Redis server answers at `url` (the suite runs without one too). */
async function redisReachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: u.hostname, port: Number(u.port || 6379) });
    socket.setTimeout(500);
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}
const redisUp = await redisReachable(redisUrl);

/** The behaviour every store must have, run against one store seen from two nodes. */
function sharedCounting(name: string, twoNodes: () => [RateLimitStore, RateLimitStore]) {
  it(`${name}: counts the events of both nodes into one window`, async () => {
    const [a, b] = twoNodes();
    const key = `k-${randomBytes(6).toString("hex")}`;
    const now = 1_800_000_000_000;
    expect((await a.hit(key, 60_000, now)).count).toBe(1);
    expect((await b.hit(key, 60_000, now + 10)).count).toBe(2);
    expect((await a.hit(key, 60_000, now + 20)).count).toBe(3);
    expect((await b.peek(key, 60_000, now + 30)).count).toBe(3);
    // The next window starts from zero.
    expect((await b.peek(key, 60_000, now + 60_000)).count).toBe(0);
    await b.reset(key, 60_000, now + 40);
    expect((await a.peek(key, 60_000, now + 50)).count).toBe(0);
  });

  it(`${name}: refuses the attempt past the limit whichever node it reaches`, async () => {
    const [a, b] = twoNodes();
    const now = () => 1_800_000_000_000;
    const onA = createRateLimiter({ name: "t", limit: 3, windowMs: 60_000, store: a, now });
    const onB = createRateLimiter({ name: "t", limit: 3, windowMs: 60_000, store: b, now });
    const key = `ip-${randomBytes(6).toString("hex")}`;
    await onA.record(key);
    await onB.record(key);
    expect(await onA.retryAfterSeconds(key)).toBe(0);
    await onB.record(key);
    expect(await onA.retryAfterSeconds(key)).toBeGreaterThan(0);
    expect(await onB.retryAfterSeconds(key)).toBeGreaterThan(0);
  });
}

describe("rate limits on PGlite (one node)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await pgliteFromTemplate();
  });
  afterAll(() => database?.close());
  sharedCounting("postgres store on PGlite", () => [createPostgresRateLimitStore(database.db), createPostgresRateLimitStore(database.db)]);

  it("stores hashed keys only: no email or address in the counters", async () => {
    const limiter = createRateLimiter({ name: "login-email", limit: 3, windowMs: 60_000, store: createPostgresRateLimitStore(database.db) });
    await limiter.record("10.0.0.1|alice@example.com");
    const rows = await database.db.query.rateLimitCounters.findMany();
    expect(JSON.stringify(rows)).not.toMatch(/alice|10\.0\.0\.1/);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("rate limits across two nodes on one Postgres", () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let dbA: Database;
  let dbB: Database;
  beforeAll(async () => {
    scratch = await createScratchPostgres();
    dbA = await openDatabase({ databaseUrl: scratch.url, dataDir: ":memory:", poolSize: 3 });
    dbB = await openDatabase({ databaseUrl: scratch.url, dataDir: ":memory:", poolSize: 3 });
  });
  afterAll(async () => {
    await dbA?.close();
    await dbB?.close();
    await scratch?.drop();
  });
  sharedCounting("postgres store", () => [createPostgresRateLimitStore(dbA.db), createPostgresRateLimitStore(dbB.db)]);

  it("limits a brute force spread over two nodes' logins", async () => {
    await dbA.db.insert(users).values({ email: "victim@example.com", role: "viewer" });
    const loginA = createLogin({ db: dbA.db, maxFailuresPerEmail: 4 });
    const loginB = createLogin({ db: dbB.db, maxFailuresPerEmail: 4 });
    const attempt = (l: typeof loginA) => l.login({ email: "victim@example.com", password: "guess", ip: "10.1.1.1" });
    expect(await attempt(loginA)).toBeNull();
    expect(await attempt(loginB)).toBeNull();
    expect(await attempt(loginA)).toBeNull();
    expect(await attempt(loginB)).toBeNull();
    // Each node alone saw two failures; together they reached the limit.
    await expect(attempt(loginA)).rejects.toMatchObject({ code: "rate_limited" });
    await expect(attempt(loginB)).rejects.toMatchObject({ code: "rate_limited" });
  });
});

describe.skipIf(!redisUp)("rate limits across two nodes on Redis", () => {
  const prefix = `svc:test:${randomBytes(4).toString("hex")}:`;
  const stores: RateLimitStore[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close?.();
    // The tests count in windows of a fixed future time: their keys go now, not when those windows end.
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });
  sharedCounting("redis store", () => {
    const pair: [RateLimitStore, RateLimitStore] = [createRedisRateLimitStore(redisUrl, { prefix }), createRedisRateLimitStore(redisUrl, { prefix })];
    stores.push(...pair);
    return pair;
  });
});
