import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/connection";
import { pgliteFromTemplate } from "../testing/storage-template";
import { createScratchPostgres } from "../testing/test-platform";
import { createInvalidationBus, INVALIDATION_CHANNEL, type InvalidationBus } from "./invalidation-bus";

async function eventually(check: () => boolean, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && !check()) await new Promise((r) => setTimeout(r, 20));
  return check();
}

describe("invalidation bus in one process (PGlite, single node)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await pgliteFromTemplate();
  });
  afterAll(() => database?.close());

  it("runs the subscribers of the kind and of '*' before publish resolves, and no others", async () => {
    const bus = createInvalidationBus({ db: database.db });
    const seen: string[] = [];
    bus.subscribe("dashboard", (key) => void seen.push(`dashboard:${key}`));
    bus.subscribe("*", (key, e) => void seen.push(`*:${e.kind}:${key}`));
    bus.subscribe("deployment", () => void seen.push("deployment"));
    await bus.publish("dashboard", 7);
    expect(seen).toEqual(["dashboard:7", "*:dashboard:7"]);
    expect(bus.crossNode).toBe(false);
  });

  it("keeps delivering when one subscriber throws, and stops after unsubscribe", async () => {
    const bus = createInvalidationBus({ db: database.db });
    const seen: (string | null)[] = [];
    bus.subscribe("settings", () => {
      throw new Error("broken cache");
    });
    const stop = bus.subscribe("settings", (key) => void seen.push(key));
    await bus.publish("settings");
    stop();
    await bus.publish("settings");
    expect(seen).toEqual([null]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("invalidation bus across nodes (Postgres LISTEN/NOTIFY)", () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let dbA: Database;
  let dbB: Database;
  let a: InvalidationBus;
  let b: InvalidationBus;

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    dbA = await openDatabase({ databaseUrl: scratch.url, dataDir: ":memory:", poolSize: 3 });
    dbB = await openDatabase({ databaseUrl: scratch.url, dataDir: ":memory:", poolSize: 3 });
    a = createInvalidationBus({ db: dbA.db, nodeId: "node-a" });
    b = createInvalidationBus({ db: dbB.db, nodeId: "node-b" });
    await a.connect(scratch.url);
    await b.connect(scratch.url);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dbA?.close();
    await dbB?.close();
    await scratch?.drop();
  });

  it("delivers one node's invalidation to the other, once, with its origin, and not back to itself", async () => {
    const onA: string[] = [];
    const onB: string[] = [];
    const stopA = a.subscribe("user", (key, e) => void onA.push(`${e.origin}:${key}`));
    const stopB = b.subscribe("user", (key, e) => void onB.push(`${e.origin}:${key}`));
    await a.publish("user", 42);
    expect(onA).toEqual(["node-a:42"]);
    expect(await eventually(() => onB.length > 0)).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(onB).toEqual(["node-a:42"]);
    expect(onA).toEqual(["node-a:42"]);
    stopA();
    stopB();
  });

  it("sends with a transaction only when it commits", async () => {
    const onB: (string | null)[] = [];
    const stop = b.subscribe("dashboard", (key) => void onB.push(key));
    await dbA.db
      .transaction(async (tx) => {
        await a.publish("dashboard", "rolled-back", { tx });
        throw new Error("rollback");
      })
      .catch(() => {});
    await dbA.db.transaction(async (tx) => {
      await a.publish("dashboard", "committed", { tx });
    });
    expect(await eventually(() => onB.includes("committed"))).toBe(true);
    expect(onB).not.toContain("rolled-back");
    stop();
  });

  it("ignores payloads that are not its own envelope", async () => {
    const onB: unknown[] = [];
    const stop = b.subscribe("*", (key) => void onB.push(key));
    await dbA.db.execute(sql`select pg_notify(${INVALIDATION_CHANNEL}, 'not json')`);
    await dbA.db.execute(sql`select pg_notify(${INVALIDATION_CHANNEL}, '{"k":1}')`);
    await a.publish("settings");
    expect(await eventually(() => onB.length > 0)).toBe(true);
    expect(onB).toEqual([null]);
    stop();
  });

  it("reconnects a lost listener and then drops every cache, since notifications may have been missed", async () => {
    const onB: (string | null)[] = [];
    const stop = b.subscribe("deployment", (key) => void onB.push(key));
    await dbA.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where query = ${`LISTEN ${INVALIDATION_CHANNEL}`} and datname = current_database()`,
    );
    expect(await eventually(() => onB.includes(null))).toBe(true);
    expect(await eventually(() => a.crossNode && b.crossNode)).toBe(true);
    await a.publish("deployment", 5);
    expect(await eventually(() => onB.includes("5"))).toBe(true);
    stop();
  });
});
