import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/connection";
import { deployments, users, workbooks } from "../../db/schema";
import { systemActor, type UserPrincipal } from "../../domain/actor";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { upsertWorkbookBySlug } from "./service";
import { mergePatches } from "./upsert-coalesce";
import { patchChanges } from "./upsert-store";

/** Waits past the current millisecond, so that a write's updatedAt differs from the one before it. */
const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 3));

/** The prepared statements the upsert sends, by name, in order, seen at the driver (a pg pool's `query`, PGlite's Bind messages). */
const sent: string[] = [];
const PREFIX = "svc_upsert_by_slug_";
function watchStatements(db: Db): () => void {
  const client = (db as unknown as { $client: Record<string, unknown> }).$client;
  if (client instanceof pg.Pool) {
    const query = client.query;
    client.query = function (this: pg.Pool, config: unknown, ...rest: unknown[]) {
      const name = (config as { name?: string } | null)?.name;
      if (name?.startsWith(PREFIX)) sent.push(name.slice(PREFIX.length));
      return (query as (...a: unknown[]) => unknown).call(this, config, ...rest);
    } as typeof client.query;
    return () => void delete (client as Partial<pg.Pool>).query;
  }
  const execProtocol = client.execProtocol as (message: Uint8Array, ...rest: unknown[]) => Promise<unknown>;
  client.execProtocol = (message: Uint8Array, ...rest: unknown[]) => {
    // A Bind ("B", length, portal name, statement name): the statement run.
    if (message[0] === 66) {
      const start = message.indexOf(0, 5) + 1;
      const name = Buffer.from(message.subarray(start, message.indexOf(0, start))).toString();
      if (name.startsWith(PREFIX)) sent.push(name.slice(PREFIX.length));
    }
    return execProtocol(message, ...rest);
  };
  return () => void delete client.execProtocol;
}

describe("the no-op check of the upsert by slug", () => {
  const row = { name: "Sales", folder_id: 3, meta_unchanged: true };

  it("finds no change when the name and folder sent are stored and the decision found the meta unchanged", () => {
    expect(patchChanges(row, { meta: null })).toBe(false);
    expect(patchChanges(row, { name: "Sales", folderId: { value: 3 }, meta: "{}" })).toBe(false);
    expect(patchChanges({ ...row, meta_unchanged: false }, { name: null, meta: null })).toBe(false);
  });

  it("finds a change in the name, the folder or the meta", () => {
    expect(patchChanges(row, { name: "Other", meta: null })).toBe(true);
    expect(patchChanges(row, { folderId: { value: null }, meta: null })).toBe(true);
    expect(patchChanges({ ...row, meta_unchanged: false }, { meta: "{}" })).toBe(true);
    expect(patchChanges({ ...row, meta_unchanged: null }, { meta: "{}" })).toBe(true);
  });
});

describe("patches merged into one UPDATE", () => {
  it("merges meta keys in arrival order and keeps the last name sent", () => {
    const merged = mergePatches([
      { name: "first", meta: JSON.stringify({ a: 1, b: { x: 1 } }) },
      { name: null, meta: null },
      { name: "last", meta: JSON.stringify({ b: { y: 2 }, c: [3] }) },
      { meta: JSON.stringify({ a: 4 }) },
    ]);
    expect(merged.name).toBe("last");
    expect(JSON.parse(merged.meta!)).toEqual({ a: 4, b: { y: 2 }, c: [3] });
  });

  it("keeps a __proto__ key an ordinary key, and sends no meta when no patch has one", () => {
    const merged = mergePatches([{ meta: '{"__proto__": {"polluted": true}}' }, { meta: '{"k": 1}' }]);
    expect(Object.keys(JSON.parse(merged.meta!))).toEqual(["__proto__", "k"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(mergePatches([{ name: "n", meta: null }])).toEqual({ name: "n", meta: null });
  });
});

describe.each(storageKinds)("statements of the upsert by slug (%s)", (storage) => {
  let t: TestPlatform;
  let dep: number;
  let admin: UserPrincipal;
  let actor: UserPrincipal;
  const upsert = (slug: string, body: Parameters<typeof upsertWorkbookBySlug>[3], as = actor) => upsertWorkbookBySlug(t.database.db, dep, slug, body, as);

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    const [d] = await t.database.db
      .insert(deployments)
      .values({ name: "fast", dataSource: { type: "duckdb", path: "/tmp/fast.duckdb" } })
      .returning();
    dep = d!.id;
    const [u] = await t.database.db.insert(users).values({ email: "fast@example.com", role: "admin" }).returning();
    admin = systemActor(u!.id);
    // A developer: access to a workbook needs a read (its own: the creator manages it).
    const [v] = await t.database.db.insert(users).values({ email: "fast-dev@example.com", role: "developer" }).returning();
    actor = systemActor(v!.id, "developer");
  });
  let unwatch = () => {};
  beforeAll(() => void (unwatch = watchStatements(t.database.db)));
  afterAll(async () => {
    unwatch();
    await t?.close();
  });

  it("creates with the decision and one INSERT, updates with one UPDATE, and answers a repeat from the decision alone (a caller whose access needs a read)", async () => {
    sent.length = 0;
    const created = await upsert("fast", { name: "Fast", meta: { a: { x: 1, y: [1, 2] } } });
    expect(sent).toEqual(["decide", "create"]);
    expect(created.user?.id).toBe(actor.userId);

    sent.length = 0;
    const updated = await upsert("fast", { meta: { b: 2 } });
    expect(sent).toEqual(["decide", "update"]);
    expect(updated.meta).toEqual({ a: { x: 1, y: [1, 2] }, b: 2 });

    sent.length = 0;
    const repeat = await upsert("fast", { name: "Fast", meta: { b: 2, a: { y: [1, 2], x: 1 } } });
    expect(sent).toEqual(["decide"]);
    expect(repeat).toEqual(updated);

    // Equal as jsonb compares it; anything else is a change.
    for (const [meta, writes] of [
      [{ a: { y: [1, 2], x: 1.0 } }, false],
      [{}, false],
      [{ b: 2.5 }, true],
      [{ b: 2 }, true],
      [{ missing: null }, true],
      [{ a: { x: 1 } }, true],
      [{ b: "2" }, true],
    ] as const) {
      sent.length = 0;
      await upsert("fast", { meta });
      expect([meta, sent]).toEqual([meta, writes ? ["decide", "update"] : ["decide"]]);
    }

    sent.length = 0;
    const changed = await upsert("fast", { meta: { a: { x: 1, y: [2, 1] } } });
    expect(sent).toEqual(["decide", "update"]);
    expect(changed.meta).toEqual({ a: { x: 1, y: [2, 1] }, b: "2", missing: null });
    expect(changed.updatedAt >= updated.updatedAt).toBe(true);
  });

  it("decides and updates in one statement for an admin, writing nothing for a repeat", async () => {
    sent.length = 0;
    const created = await upsert("admin-fast", { name: "Fast", meta: { a: { x: 1, y: [1, 2] } } }, admin);
    expect(sent).toEqual(["decide_and_update", "create"]);
    // Timestamps are answered to the millisecond: a write in the same one would look like none.
    await nextMillisecond();
    sent.length = 0;
    const updated = await upsert("admin-fast", { meta: { b: 2 } }, admin);
    expect(sent).toEqual(["decide_and_update"]);
    expect(updated.meta).toEqual({ a: { x: 1, y: [1, 2] }, b: 2 });
    expect(updated.updatedAt > created.updatedAt).toBe(true);
    expect(updated.createdAt).toBe(created.createdAt);
    for (const [body, writes] of [
      [{ name: "Fast", meta: { b: 2, a: { y: [1, 2], x: 1.0 } } }, false],
      [{ meta: { b: 2.5 } }, true],
      [{ name: "Renamed" }, true],
      [{ name: "Renamed", meta: { b: 2.5 } }, false],
    ] as const) {
      const before = await upsert("admin-fast", {}, admin);
      await nextMillisecond();
      sent.length = 0;
      const after = await upsert("admin-fast", body, admin);
      expect(sent).toEqual(["decide_and_update"]);
      expect([body, after.updatedAt !== before.updatedAt]).toEqual([body, writes]);
    }
    // A draft or a folder is checked against the decided workbook first: two statements.
    sent.length = 0;
    await upsert("admin-fast", { meta: { dashboardDraft: { title: "Draft" } } }, admin);
    expect(sent).toEqual(["decide", "update"]);
  });

  it("merges concurrent writers of one workbook into fewer UPDATEs and loses no key", async () => {
    await upsert("hot", { meta: { base: true } }, admin);
    sent.length = 0;
    const writers = 24;
    const answers = await Promise.all(Array.from({ length: writers }, (_, i) => upsert("hot", { meta: { [`k${i}`]: i } }, admin)));
    answers.forEach((a, i) => expect(a.meta[`k${i}`]).toBe(i));
    expect(sent.filter((s) => s === "update").length).toBeLessThan(writers);
    const [row] = await t.database.db.select().from(workbooks).where(eq(workbooks.slug, "hot"));
    expect(row!.meta).toEqual({ base: true, ...Object.fromEntries(Array.from({ length: writers }, (_, i) => [`k${i}`, i])) });
  });

  it("applies each patch of a merged UPDATE that fails on its own, so one bad patch fails only its caller", async () => {
    await upsert("mixed", { meta: {} });
    const bodies = Array.from({ length: 12 }, (_, i) => ({ meta: i === 5 ? { bad: "nul \u0000 in text" } : { [`k${i}`]: i } }));
    const outcomes = await Promise.allSettled(bodies.map((b) => upsert("mixed", b)));
    outcomes.forEach((o, i) => expect(o.status).toBe(i === 5 ? "rejected" : "fulfilled"));
    expect((outcomes[5] as PromiseRejectedResult).reason).toMatchObject({ code: "validation_failed" });
    const [row] = await t.database.db.select().from(workbooks).where(eq(workbooks.slug, "mixed"));
    expect(Object.keys(row!.meta).sort()).toEqual(bodies.flatMap((b, i) => (i === 5 ? [] : Object.keys(b.meta))).sort());
  });
});
