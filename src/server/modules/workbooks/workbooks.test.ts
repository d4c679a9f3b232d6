import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupMembers, groups } from "../../db/schema";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

describe.each(storageKinds)("workbooks API (%s)", (storage) => {
  let t: TestPlatform;
  let dep: number;
  let otherDep: number;
  const users: Record<string, { id: number; token: string }> = {};
  const base = () => `/api/v1/deployments/${dep}/workbooks`;
  const upsert = (slug: string, body?: unknown, token?: string | null) => t.api("PUT", `${base()}/by-slug/${encodeURIComponent(slug)}`, body, token);
  const as = (name: string) => users[name]!.token;

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    [dep, otherDep] = await t.addDeployments("main", "other");
    for (const [name, role] of [
      ["viewer", "viewer"],
      ["analyst", "ai_bi_user"],
      ["analyst2", "ai_bi_user"],
      ["dev", "developer"],
    ] as const) {
      users[name] = await t.addUser(`${name}@example.com`, role, { firstName: name });
    }
  });
  afterAll(() => t?.close());

  it("creates a workbook with the normalized slug and answers the full Workbook", async () => {
    const res = await upsert("  Quarterly-Review ", { name: "Quarterly review", meta: { owner: "finance" } });
    expect(res.status).toBe(200);
    const wb = await res.json();
    expect(wb).toMatchObject({
      deploymentId: dep,
      name: "Quarterly review",
      slug: "quarterly-review",
      type: "WORKBOOK",
      meta: { owner: "finance" },
      calculatedFields: {},
      createdBy: t.adminUserId,
      userId: t.adminUserId,
      user: { id: t.adminUserId, email: "admin@example.com", firstName: "Admin" },
      folderId: null,
      folderPath: [],
      isFavorite: false,
      dashboardDraft: null,
      dashboardPublished: null,
      publishedDashboard: null,
    });
    expect(Date.parse(wb.createdAt)).not.toBeNaN();
    const again = await (await upsert("QUARTERLY-REVIEW")).json();
    expect(again.id).toBe(wb.id);
  });

  it("defaults the name to the slug and accepts a missing or null body", async () => {
    const res = await upsert("no-body");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "no-body", slug: "no-body", meta: {} });
    const nullBody = await upsert("null-body", null);
    expect(nullBody.status).toBe(200);
  });

  it("updates only the fields sent and merges meta into the stored meta", async () => {
    const created = await (await upsert("merge-me", { name: "Original", meta: { a: 1, nested: { x: 1 } } })).json();
    const res = await upsert("merge-me", { meta: { b: 2, nested: { y: 2 } } });
    const wb = await res.json();
    expect(wb.id).toBe(created.id);
    expect(wb.name).toBe("Original");
    expect(wb.meta).toEqual({ a: 1, b: 2, nested: { y: 2 } });
    const renamed = await (await upsert("merge-me", { name: "Renamed" })).json();
    expect(renamed).toMatchObject({ name: "Renamed", meta: { a: 1, b: 2 } });
  });

  it("writes nothing when the same request is applied again (updatedAt and the row version stay)", async () => {
    const body = { name: "Stable", meta: { k: "v" } };
    const first = await (await upsert("stable", body)).json();
    const xmin = async () =>
      ((await t.database.db.execute(sql`SELECT xmin::text AS x FROM workbooks WHERE id = ${first.id}`)) as unknown as { rows: { x: string }[] }).rows[0]!.x;
    const before = await xmin();
    for (let i = 0; i < 3; i++) {
      const again = await (await upsert("stable", body)).json();
      expect(again.updatedAt).toBe(first.updatedAt);
      expect(again).toEqual(first);
    }
    expect(await xmin()).toBe(before);
    const changed = await (await upsert("stable", { meta: { k: "w" } })).json();
    expect(changed.updatedAt).not.toBe(first.updatedAt);
  });

  it("validates meta.dashboardDraft as a DashboardConfig with the path of each problem", async () => {
    const res = await upsert("bad-draft", {
      meta: { dashboardDraft: { kind: "NOPE", widgets: [{ id: "w1", type: "CHART", position: { x: 0, y: 0, w: 2 } }] } },
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe("validation_failed");
    const paths = body.details.map((d: { path: unknown[] }) => d.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["meta.dashboardDraft.kind", "meta.dashboardDraft.widgets.0.position.h"]));
    expect((await t.api("GET", `${base()}?search=bad-draft`)).status).toBe(200);
    const list = await (await t.api("GET", `${base()}?search=bad-draft`)).json();
    expect(list.items).toHaveLength(0);
    const ok = await upsert("good-draft", {
      meta: { dashboardDraft: { title: "T", widgets: [{ id: "w1", type: "TEXT", position: { x: 0, y: 0, w: 2, h: 1 } }] } },
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).dashboardDraft).toMatchObject({ title: "T" });
  });

  it("refuses bad input with 400 and paths", async () => {
    const cases: [string, unknown, string][] = [
      ["bad slug!", {}, "slug"],
      ["x".repeat(101), {}, "slug"],
      ["-leading", {}, "slug"],
      ["ok-slug", [], ""],
      ["ok-slug", JSON.stringify("text"), ""],
      ["ok-slug", "{not json", ""],
      ["ok-slug", { meta: "not-an-object" }, "meta"],
      ["ok-slug", { meta: [1, 2] }, "meta"],
      ["ok-slug", { name: "x", color: "red" }, ""],
      ["ok-slug", { folderId: "3" }, "folderId"],
      ["ok-slug", { folderId: 1.5 }, "folderId"],
    ];
    for (const [slug, body, path] of cases) {
      const res = await upsert(slug, body);
      expect(res.status, JSON.stringify([slug, body])).toBe(400);
      const err = await res.json();
      expect(err.code).toBe("validation_failed");
      if (body !== "{not json") expect(Array.isArray(err.details)).toBe(true);
      if (path) expect(err.details.map((d: { path: unknown[] }) => d.path[0])).toContain(path);
    }
    const unknown = await (await upsert("ok-slug", { name: "x", color: "red" })).json();
    expect(JSON.stringify(unknown.details)).toContain("color");
    expect((await t.api("GET", `${base()}?search=ok-slug`).then((r) => r.json())).items).toHaveLength(0);
  });

  it("answers 404 for a missing deployment", async () => {
    const res = await upsert("x").then(() => t.api("PUT", `/api/v1/deployments/999999/workbooks/by-slug/anything`, { name: "x" }));
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe("not_found");
  });

  it("keeps slugs per deployment", async () => {
    const a = await (await upsert("shared-slug")).json();
    const b = await (await t.api("PUT", `/api/v1/deployments/${otherDep}/workbooks/by-slug/shared-slug`, {})).json();
    expect(b.deploymentId).toBe(otherDep);
    expect(b.id).not.toBe(a.id);
  });

  it("lets ai_bi_user and higher create, refuses a viewer and an unauthenticated caller", async () => {
    expect((await upsert("by-viewer", {}, as("viewer"))).status).toBe(403);
    expect((await upsert("by-nobody", {}, null)).status).toBe(401);
    const own = await upsert("by-analyst", { name: "Mine" }, as("analyst"));
    expect(own.status).toBe(200);
    expect((await own.json()).user.id).toBe(users.analyst!.id);
    expect((await upsert("by-dev", {}, as("dev"))).status).toBe(200);
  });

  it("needs edit on an existing workbook to update it, granted directly or through a group", async () => {
    const wb = await (await upsert("guarded", { name: "Guarded" })).json();
    // Out of sight, a slug's workbook answers 404 like a missing object; readable but not editable, 403.
    expect((await upsert("guarded", { name: "Hijack" }, as("analyst2"))).status).toBe(404);
    // The refused update left the workbook alone.
    expect((await (await upsert("guarded")).json()).name).toBe("Guarded");
    const grant = (principalType: string, principalId: number, level: string) =>
      t.api("PUT", `/api/v1/deployments/${dep}/grants`, { objectType: "workbook", objectId: wb.id, principalType, principalId, level });
    expect((await grant("user", users.analyst2!.id, "read")).status).toBe(200);
    expect((await upsert("guarded", { name: "Hijack" }, as("analyst2"))).status).toBe(403);
    expect((await grant("user", users.analyst2!.id, "edit")).status).toBe(200);
    const ok = await upsert("guarded", { name: "Edited" }, as("analyst2"));
    expect(ok.status).toBe(200);
    expect((await ok.json()).name).toBe("Edited");
    // Through a group: a viewer in a group with edit may update (no role is needed to edit).
    const [g] = await t.database.db
      .insert(groups)
      .values({ name: `editors-${storage}` })
      .returning();
    await t.database.db.insert(groupMembers).values({ groupId: g!.id, userId: users.viewer!.id });
    expect((await upsert("guarded", { meta: { v: 1 } }, as("viewer"))).status).toBe(404);
    expect((await grant("group", g!.id, "edit")).status).toBe(200);
    expect((await upsert("guarded", { meta: { v: 1 } }, as("viewer"))).status).toBe(200);
  });

  it("needs manage on the workbook and edit on the destination folder when folderId is sent", async () => {
    const folder = await (await t.api("POST", `/api/v1/deployments/${dep}/folders`, { name: "Finance" })).json();
    const sub = await (await t.api("POST", `/api/v1/deployments/${dep}/folders`, { name: "Q1", parentId: folder.id })).json();
    const wb = await (await upsert("movable")).json();
    const grant = (objectType: string, objectId: number, level: string) =>
      t.api("PUT", `/api/v1/deployments/${dep}/grants`, { objectType, objectId, principalType: "user", principalId: users.dev!.id, level });
    await grant("workbook", wb.id, "edit");
    // edit suffices without folderId, not with it
    expect((await upsert("movable", { name: "Movable" }, as("dev"))).status).toBe(200);
    expect((await upsert("movable", { folderId: sub.id }, as("dev"))).status).toBe(403);
    await grant("workbook", wb.id, "manage");
    // A destination folder out of sight answers 404 like a missing one; readable, 403.
    expect((await upsert("movable", { folderId: sub.id }, as("dev"))).status).toBe(404);
    await grant("folder", sub.id, "read");
    expect((await upsert("movable", { folderId: sub.id }, as("dev"))).status).toBe(403);
    await grant("folder", folder.id, "edit"); // a grant on the parent covers the subfolder
    const moved = await upsert("movable", { folderId: sub.id }, as("dev"));
    expect(moved.status).toBe(200);
    expect((await moved.json()).folderPath).toEqual([
      { id: folder.id, name: "Finance" },
      { id: sub.id, name: "Q1" },
    ]);
    // Even folderId: null (to the root) needs manage.
    await grant("workbook", wb.id, "edit");
    expect((await upsert("movable", { folderId: null }, as("dev"))).status).toBe(403);
    expect((await upsert("movable", { folderId: 999999 })).status).toBe(404);
  });

  it("creates inside a folder only with edit on it", async () => {
    const folder = await (await t.api("POST", `/api/v1/deployments/${dep}/folders`, { name: "Locked" })).json();
    expect((await upsert("in-locked", { folderId: folder.id }, as("analyst"))).status).toBe(404);
    await t.api("PUT", `/api/v1/deployments/${dep}/grants`, {
      objectType: "folder",
      objectId: folder.id,
      principalType: "user",
      principalId: users.analyst!.id,
      level: "edit",
    });
    const res = await upsert("in-locked", { folderId: folder.id }, as("analyst"));
    expect(res.status).toBe(200);
    expect((await res.json()).folderPath).toEqual([{ id: folder.id, name: "Locked" }]);
  });

  it("creates, reads, lists with cursor pages, updates and deletes workbooks", async () => {
    const created = await t.api("POST", base(), { name: "Plain", slug: "Plain-One" });
    expect(created.status).toBe(201);
    const wb = await created.json();
    expect(wb.slug).toBe("plain-one");
    expect((await t.api("POST", base(), { name: "Dup", slug: "plain-one" })).status).toBe(409);
    expect((await t.api("POST", base(), { name: "x" }, as("viewer"))).status).toBe(403);
    expect((await t.api("GET", `${base()}/${wb.id}`)).status).toBe(200);
    expect((await t.api("GET", `/api/v1/deployments/${otherDep}/workbooks/${wb.id}`)).status).toBe(404);

    const p1 = await (await t.api("GET", `${base()}?first=2`)).json();
    expect(p1.items).toHaveLength(2);
    expect(p1.data).toEqual(p1.items);
    expect(p1.count).toBeGreaterThan(2);
    expect(p1.pageInfo.hasNextPage).toBe(true);
    const p2 = await (await t.api("GET", `${base()}?first=2&after=${p1.pageInfo.endCursor}`)).json();
    expect(p2.items[0].id).toBeGreaterThan(p1.items[1].id);
    expect(p2.pageInfo.hasPreviousPage).toBe(true);

    const upd = await t.api("PUT", `${base()}/${wb.id}`, { name: "Plain renamed", meta: { x: 1 } });
    expect(await upd.json()).toMatchObject({ name: "Plain renamed", meta: { x: 1 }, slug: "plain-one" });
    expect((await t.api("PUT", `${base()}/${wb.id}`, { slug: "Bad Slug" })).status).toBe(400);
    expect((await t.api("PUT", `${base()}/${wb.id}`, { unknown: 1 })).status).toBe(400);

    expect((await t.api("DELETE", `${base()}/${wb.id}`, undefined, as("analyst"))).status).toBe(404);
    expect((await t.api("DELETE", `${base()}/${wb.id}`)).status).toBe(204);
    expect((await t.api("GET", `${base()}/${wb.id}`)).status).toBe(404);
    expect((await t.api("DELETE", `${base()}/${wb.id}`)).status).toBe(404);
  });

  it("lists only what the caller can read", async () => {
    const mine = await (await upsert("visible-to-analyst2", {}, as("analyst2"))).json();
    const list = await (await t.api("GET", `${base()}?first=100`, undefined, as("analyst2"))).json();
    const ids = list.items.map((w: { id: number }) => w.id);
    expect(ids).toContain(mine.id);
    const adminOnly = await (await upsert("admin-only")).json();
    expect(ids).not.toContain(adminOnly.id);
    expect(list.count).toBe(list.items.length);
    expect((await t.api("GET", `${base()}/${adminOnly.id}`, undefined, as("analyst2"))).status).toBe(404);
  });

  it("moves a slug to another workbook only with slugTakeover", async () => {
    const holder = await (await upsert("wanted")).json();
    const taker = await (await upsert("taker")).json();
    const refused = await t.api("PUT", `${base()}/${taker.id}`, { slug: "wanted" });
    expect(refused.status).toBe(409);
    expect((await refused.json()).code).toBe("slug_taken");
    const taken = await t.api("PUT", `${base()}/${taker.id}`, { slug: " WANTED ", slugTakeover: true });
    expect(taken.status).toBe(200);
    expect((await taken.json()).slug).toBe("wanted");
    expect((await (await t.api("GET", `${base()}/${holder.id}`)).json()).slug).toBeNull();
    expect((await (await upsert("wanted")).json()).id).toBe(taker.id);
  });

  it("duplicates a workbook, optionally from the shared workspace", async () => {
    const src = await (await upsert("to-copy", { name: "Source", meta: { dashboardDraft: { title: "Draft title" } } })).json();
    const copy = await t.api("POST", `${base()}/${src.id}/duplicate`);
    expect(copy.status).toBe(201);
    const c = await copy.json();
    expect(c).toMatchObject({ name: "Source (copy)", slug: null, meta: { dashboardDraft: { title: "Draft title" } } });
    expect((await t.api("POST", `${base()}/${src.id}/duplicate`, { shared: true })).status).toBe(409);
    await t.api("PUT", `${base()}/${src.id}/dashboard/draft`, { title: "Published title" });
    expect((await t.api("POST", `${base()}/${src.id}/dashboard/publish`)).status).toBe(200);
    await upsert("to-copy", { meta: { dashboardDraft: { title: "Unpublished edit" } } });
    const shared = await (await t.api("POST", `${base()}/${src.id}/duplicate`, { shared: true })).json();
    expect(shared.dashboardDraft).toEqual({ title: "Published title" });
    expect((await t.api("POST", `${base()}/${src.id}/duplicate`, { shared: "yes" })).status).toBe(400);
    expect((await t.api("POST", `${base()}/${src.id}/duplicate`, {}, as("analyst"))).status).toBe(404);
  });

  it("marks favorites per user", async () => {
    const wb = await (await upsert("fav")).json();
    expect((await (await t.api("PUT", `${base()}/${wb.id}/favorite`)).json()).isFavorite).toBe(true);
    expect((await (await upsert("fav")).json()).isFavorite).toBe(true);
    expect((await (await t.api("DELETE", `${base()}/${wb.id}/favorite`)).json()).isFavorite).toBe(false);
  });

  it("serves the operations in the OpenAPI document", async () => {
    const res = await t.api("GET", "/api/v1/openapi.json", undefined, null);
    const doc = await res.json();
    expect(res.status, JSON.stringify(doc).slice(0, 500)).toBe(200);
    const op = doc.paths["/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}"].put;
    expect(op.operationId).toBe("upsertWorkbookBySlug");
    expect(op.tags).toEqual(["Workbooks"]);
    for (const p of [
      "/api/v1/deployments/{deploymentId}/reports/by-public-id/{publicId}",
      "/api/v1/deployments/{deploymentId}/workspace/bulk-move",
      "/api/v1/users/",
      "/api/v1/users/{id}",
      "/api/v1/deployments/{deploymentId}/grants",
    ])
      expect(doc.paths[p], p).toBeDefined();
    expect(doc.components.schemas.Workbook).toBeDefined();
    expect(doc.components.schemas.UpdateWorkbookInput.properties.slugTakeover).toBeDefined();
  });
});
