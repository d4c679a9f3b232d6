import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardVersions, dashboards, deployments, workbooks } from "../../db/schema";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

const WRITERS = 24;

async function setup(storage: "pglite" | "postgres") {
  const t = await createTestPlatform({ storage });
  const [d] = await t.database.db
    .insert(deployments)
    .values({ name: "race", dataSource: { type: "duckdb", path: "/tmp/race.duckdb" } })
    .returning();
  return { t, dep: d!.id };
}

describe.each(storageKinds)("upsertWorkbookBySlug under concurrent writers (%s)", (storage) => {
  let t: TestPlatform;
  let dep: number;
  const upsert = (slug: string, body?: unknown) => t.api("PUT", `/api/v1/deployments/${dep}/workbooks/by-slug/${slug}`, body);
  const retrying = async (slug: string, body: unknown) => {
    for (let i = 0; i < 20; i++) {
      const res = await upsert(slug, body);
      if (res.status !== 409) return res;
      expect((await res.json()).code).toBe("upsert_branch_changed");
    }
    throw new Error("still 409 after 20 tries");
  };

  beforeAll(async () => ({ t, dep } = await setup(storage)));
  afterAll(() => t?.close());

  it("creates exactly one workbook when many writers race on one new slug; each gets 200 or upsert_branch_changed", async () => {
    const responses = await Promise.all(Array.from({ length: WRITERS }, (_, i) => upsert("hot-new", { name: `writer ${i}` })));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    const ids = new Set<number>();
    responses.forEach((r, i) => {
      expect([200, 409]).toContain(r.status);
      if (r.status === 409) expect(bodies[i].code).toBe("upsert_branch_changed");
      else ids.add(bodies[i].id);
    });
    const rows = await t.database.db.select().from(workbooks).where(eq(workbooks.slug, "hot-new"));
    expect(rows).toHaveLength(1);
    expect([...ids]).toEqual([rows[0]!.id]);
  });

  it("loses no meta key when many writers merge distinct keys into one workbook", async () => {
    await upsert("merge-target", { meta: { base: true } });
    const responses = await Promise.all(Array.from({ length: WRITERS }, (_, i) => upsert("merge-target", { meta: { [`k${i}`]: i } })));
    for (const r of responses) expect(r.status).toBe(200);
    const [row] = await t.database.db.select().from(workbooks).where(eq(workbooks.slug, "merge-target"));
    expect(row!.meta).toEqual({ base: true, ...Object.fromEntries(Array.from({ length: WRITERS }, (_, i) => [`k${i}`, i])) });
  });

  it("loses no meta key when the writers also race to create the slug (retrying on 409)", async () => {
    const responses = await Promise.all(Array.from({ length: WRITERS }, (_, i) => retrying("merge-new", { meta: { [`k${i}`]: i } })));
    for (const r of responses) expect(r.status).toBe(200);
    const rows = await t.database.db.select().from(workbooks).where(eq(workbooks.slug, "merge-new"));
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!.meta).sort()).toEqual(Array.from({ length: WRITERS }, (_, i) => `k${i}`).sort());
  });

  it("never resurrects a workbook when a delete races an update", async () => {
    for (let round = 0; round < 8; round++) {
      const slug = `doomed-${round}`;
      const wb = await (await upsert(slug, { name: "v1" })).json();
      const [del, bySlug, byId] = await Promise.all([
        t.api("DELETE", `/api/v1/deployments/${dep}/workbooks/${wb.id}`),
        upsert(slug, { meta: { round } }),
        t.api("PUT", `/api/v1/deployments/${dep}/workbooks/${wb.id}`, { meta: { byId: round } }),
      ]);
      expect(del.status).toBe(204);
      expect([200, 409]).toContain(bySlug.status);
      expect([200, 404]).toContain(byId.status);
      if (bySlug.status === 409) expect((await bySlug.json()).code).toBe("upsert_branch_changed");
      const old = await t.database.db.select().from(workbooks).where(eq(workbooks.id, wb.id));
      expect(old).toHaveLength(0);
      const rows = await t.database.db.select().from(workbooks).where(eq(workbooks.slug, slug));
      // Either nothing, or a workbook created after the delete was decided: a new id, not the old one back.
      for (const r of rows) expect(r.id).not.toBe(wb.id);
      expect(rows.length).toBeLessThanOrEqual(1);
    }
  });

  it("keeps one version and the same updatedAt under repeated identical requests", async () => {
    const body = { name: "Same", meta: { dashboardDraft: { title: "Same", widgets: [] } } };
    const first = await (await upsert("repeat", body)).json();
    const responses = await Promise.all(Array.from({ length: WRITERS }, () => upsert("repeat", body)));
    for (const r of responses) {
      expect(r.status).toBe(200);
      expect((await r.json()).updatedAt).toBe(first.updatedAt);
    }
    const publishes = await Promise.all(Array.from({ length: 8 }, () => t.api("POST", `/api/v1/deployments/${dep}/workbooks/${first.id}/dashboard/publish`)));
    for (const p of publishes) expect(p.status).toBe(200);
    const versions = new Set(await Promise.all(publishes.map(async (p) => (await p.json()).versionId)));
    expect(versions.size).toBe(1);
    const [d] = await t.database.db.select().from(dashboards).where(eq(dashboards.workbookId, first.id));
    expect(await t.database.db.select().from(dashboardVersions).where(eq(dashboardVersions.dashboardId, d!.id))).toHaveLength(1);
    const after = await (await upsert("repeat", body)).json();
    expect(after.updatedAt).toBe(first.updatedAt);
  });
});

// With a Postgres server, a second connection can hold the competing write open while the
// request runs, which lands it exactly between the branch decision and its application.
for (const storage of storageKinds.filter((k) => k === "postgres")) {
  describe(`upsertWorkbookBySlug branch changes between decision and write (${storage})`, () => {
    let t: TestPlatform;
    let dep: number;
    const upsert = (slug: string, body?: unknown) => t.api("PUT", `/api/v1/deployments/${dep}/workbooks/by-slug/${slug}`, body);
    beforeAll(async () => ({ t, dep } = await setup(storage)));
    afterAll(() => t?.close());

    it("answers 409 upsert_branch_changed when the slug is created after the create branch was decided", async () => {
      let pending: Promise<Response> | null = null;
      await t.database.db.transaction(async (tx) => {
        await tx.insert(workbooks).values({ deploymentId: dep, name: "other writer", slug: "late-create" });
        pending = upsert("late-create", { name: "mine" });
        await new Promise((r) => setTimeout(r, 300));
      });
      const res = await pending!;
      expect(res.status).toBe(409);
      expect((await res.json()).code).toBe("upsert_branch_changed");
      const rows = await t.database.db.select().from(workbooks).where(eq(workbooks.slug, "late-create"));
      expect(rows.map((r) => r.name)).toEqual(["other writer"]);
    });

    it("answers 409 upsert_branch_changed when the workbook is deleted after the update branch was decided", async () => {
      const wb = await (await upsert("late-delete", { name: "v1" })).json();
      let pending: Promise<Response> | null = null;
      await t.database.db.transaction(async (tx) => {
        await tx.delete(workbooks).where(eq(workbooks.id, wb.id));
        pending = upsert("late-delete", { meta: { x: 1 } });
        await new Promise((r) => setTimeout(r, 300));
      });
      const res = await pending!;
      expect(res.status).toBe(409);
      expect((await res.json()).code).toBe("upsert_branch_changed");
      expect(await t.database.db.select().from(workbooks).where(eq(workbooks.slug, "late-delete"))).toHaveLength(0);
    });

    it("merges a key written by a concurrent transaction instead of overwriting it", async () => {
      const wb = await (await upsert("late-merge", { meta: { a: 1 } })).json();
      let pending: Promise<Response> | null = null;
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE workbooks SET meta = meta || '{"b": 2}'::jsonb WHERE id = ${wb.id}`);
        pending = upsert("late-merge", { meta: { c: 3 } });
        await new Promise((r) => setTimeout(r, 300));
      });
      expect((await pending!).status).toBe(200);
      const [row] = await t.database.db.select().from(workbooks).where(eq(workbooks.id, wb.id));
      expect(row!.meta).toEqual({ a: 1, b: 2, c: 3 });
    });
  });
}
