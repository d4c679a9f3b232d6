import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workbooks } from "../../db/schema";
import { createApiKey } from "../api-keys/service";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

describe.each(storageKinds)("folders, workspace, dashboards, users and grants API (%s)", (storage) => {
  let t: TestPlatform;
  let dep: number;
  let analyst: { id: number; token: string };
  const d = (p: string) => `/api/v1/deployments/${dep}${p}`;
  const folder = async (name: string, parentId?: number, token?: string) => (await t.api("POST", d("/folders"), { name, parentId }, token)).json();

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    [dep] = await t.addDeployments("ws");
    analyst = await t.addUser("ws-analyst@example.com", "ai_bi_user");
  });
  afterAll(() => t?.close());

  it("creates, reads, renames, moves and deletes nested folders with their folderPath", async () => {
    const top = await folder("Top");
    const mid = await folder("Mid", top.id);
    const leaf = await folder("Leaf", mid.id);
    expect(leaf).toMatchObject({
      type: "FOLDER",
      parentId: mid.id,
      folderPath: [
        { id: top.id, name: "Top" },
        { id: mid.id, name: "Mid" },
      ],
    });
    const renamed = await (await t.api("PUT", d(`/folders/${mid.id}`), { name: "Middle" })).json();
    expect(renamed.name).toBe("Middle");
    expect((await (await t.api("GET", d(`/folders/${leaf.id}`))).json()).folderPath[1].name).toBe("Middle");
    const moved = await (await t.api("PUT", d(`/folders/${leaf.id}`), { parentId: null })).json();
    expect(moved).toMatchObject({ parentId: null, folderPath: [] });
    expect((await t.api("POST", d("/folders"), { name: "x", parentId: 999999 })).status).toBe(404);
    expect((await t.api("POST", d("/folders"), { name: "" })).status).toBe(400);
    expect((await t.api("POST", d("/folders"), { name: "x" }, null)).status).toBe(401);
  });

  it("refuses to move a folder into itself or one of its descendants", async () => {
    const a = await folder("A");
    const b = await folder("B", a.id);
    const c = await folder("C", b.id);
    for (const target of [a.id, b.id, c.id]) {
      const res = await t.api("PUT", d(`/folders/${a.id}`), { parentId: target });
      expect(res.status, String(target)).toBe(400);
      expect((await res.json()).details[0].path).toEqual(["parentId"]);
    }
    expect((await (await t.api("GET", d(`/folders/${a.id}`))).json()).parentId).toBeNull();
  });

  it("lists folders with cursor pages and the deprecated fields", async () => {
    const p1 = await (await t.api("GET", d("/folders?first=2"))).json();
    expect(p1.items).toHaveLength(2);
    expect(p1.data).toEqual(p1.items);
    expect(p1.pageInfo.hasNextPage).toBe(true);
    const p2 = await (await t.api("GET", d(`/folders?first=2&after=${p1.pageInfo.endCursor}`))).json();
    expect(p2.items[0].id).toBeGreaterThan(p1.items[1].id);
    const top = await (await t.api("GET", d("/folders?parentId=root&first=100"))).json();
    expect(top.items.every((f: { parentId: number | null }) => f.parentId === null)).toBe(true);
  });

  it("gives folder access to everything inside and hides the rest from lists", async () => {
    const shared = await folder("Shared");
    const inner = await folder("Inner", shared.id);
    const wb = await (await t.api("PUT", d("/workbooks/by-slug/in-shared"), { folderId: inner.id })).json();
    expect((await t.api("GET", d(`/folders/${inner.id}`), undefined, analyst.token)).status).toBe(404);
    expect((await t.api("GET", d(`/workbooks/${wb.id}`), undefined, analyst.token)).status).toBe(404);
    await t.api("PUT", d("/grants"), { objectType: "folder", objectId: shared.id, principalType: "user", principalId: analyst.id, level: "read" });
    expect((await t.api("GET", d(`/workbooks/${wb.id}`), undefined, analyst.token)).status).toBe(200);
    expect((await t.api("PUT", d("/workbooks/by-slug/in-shared"), { name: "no" }, analyst.token)).status).toBe(403);
    const visible = await (await t.api("GET", d("/folders?first=100"), undefined, analyst.token)).json();
    expect(visible.items.map((f: { id: number }) => f.id).sort()).toEqual([shared.id, inner.id].sort());
    const grants = await (await t.api("GET", d(`/grants/folder/${shared.id}`))).json();
    expect(grants.items).toEqual([expect.objectContaining({ principalId: analyst.id, level: "read" })]);
    expect((await t.api("GET", d(`/grants/folder/${shared.id}`), undefined, analyst.token)).status).toBe(403);
    expect((await t.api("DELETE", d(`/grants/folder/${shared.id}/user/${analyst.id}`))).status).toBe(204);
    expect((await t.api("GET", d(`/workbooks/${wb.id}`), undefined, analyst.token)).status).toBe(404);
    expect(
      (await t.api("PUT", d("/grants"), { objectType: "folder", objectId: shared.id, principalType: "user", principalId: 999999, level: "read" })).status,
    ).toBe(404);
    expect(
      (await t.api("PUT", d("/grants"), { objectType: "folder", objectId: shared.id, principalType: "user", principalId: analyst.id, level: "owner" })).status,
    ).toBe(400);
  });

  it("lists the workspace of a folder: folders, then workbooks, then reports, in cursor pages", async () => {
    const box = await folder("Box");
    await folder("Sub", box.id);
    await t.api("PUT", d("/workbooks/by-slug/box-wb"), { folderId: box.id, name: "Box workbook" });
    await t.api("PUT", d("/reports/by-public-id/BoxReport001"), { name: "Box report", folderId: box.id });
    const p1 = await (await t.api("GET", d(`/workspace?folderId=${box.id}&first=2`))).json();
    expect(p1.items.map((i: { type: string }) => i.type)).toEqual(["FOLDER", "WORKBOOK"]);
    expect(p1.count).toBe(3);
    const p2 = await (await t.api("GET", d(`/workspace?folderId=${box.id}&first=2&after=${p1.pageInfo.endCursor}`))).json();
    expect(p2.items).toEqual([expect.objectContaining({ type: "REPORT", name: "Box report", publicId: "BoxReport001" })]);
    expect(p2.pageInfo.hasNextPage).toBe(false);
  });

  it("bulk-moves with per-item access checks and failures, keeping what succeeded", async () => {
    const dest = await folder("Dest");
    const own = await folder("Analyst folder", undefined, analyst.token);
    const mine = await (await t.api("PUT", d("/workbooks/by-slug/analyst-wb"), {}, analyst.token)).json();
    const theirs = await (await t.api("PUT", d("/workbooks/by-slug/admin-wb"), {})).json();
    await t.api("PUT", d("/grants"), { objectType: "folder", objectId: dest.id, principalType: "user", principalId: analyst.id, level: "edit" });
    const res = await t.api(
      "POST",
      d("/workspace/bulk-move"),
      {
        targetFolderId: dest.id,
        items: [
          { type: "WORKBOOK", id: mine.id },
          { type: "WORKBOOK", id: theirs.id },
          { type: "FOLDER", id: own.id },
          { type: "REPORT", id: 999999 },
        ],
      },
      analyst.token,
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.succeeded).toEqual([
      { type: "WORKBOOK", id: mine.id },
      { type: "FOLDER", id: own.id },
    ]);
    expect(body.failed).toEqual([
      expect.objectContaining({ type: "WORKBOOK", id: theirs.id, code: "not_found" }),
      expect.objectContaining({ type: "REPORT", id: 999999, code: "not_found" }),
    ]);
    const [moved] = await t.database.db.select().from(workbooks).where(eq(workbooks.id, mine.id));
    expect(moved!.folderId).toBe(dest.id);
    // The destination needs edit: the analyst cannot move into a folder it only reads.
    const ro = await folder("Read only");
    await t.api("PUT", d("/grants"), { objectType: "folder", objectId: ro.id, principalType: "user", principalId: analyst.id, level: "read" });
    expect((await t.api("POST", d("/workspace/bulk-move"), { targetFolderId: ro.id, items: [{ type: "WORKBOOK", id: mine.id }] }, analyst.token)).status).toBe(
      403,
    );
  });

  it("bulk-move refuses a folder into its own subtree per item", async () => {
    const p = await folder("P");
    const child = await folder("Child", p.id);
    const other = await folder("Other");
    const body = await (
      await t.api("POST", d("/workspace/bulk-move"), {
        targetFolderId: child.id,
        items: [
          { type: "FOLDER", id: p.id },
          { type: "FOLDER", id: other.id },
        ],
      })
    ).json();
    expect(body.failed).toEqual([expect.objectContaining({ type: "FOLDER", id: p.id, code: "invalid_move" })]);
    expect(body.succeeded).toEqual([{ type: "FOLDER", id: other.id }]);
  });

  it("bulk-deletes with per-item failures and refuses more than 100 items", async () => {
    const f = await folder("Doomed");
    const inside = await (await t.api("PUT", d("/workbooks/by-slug/doomed-inside"), { folderId: f.id })).json();
    const wb = await (await t.api("PUT", d("/workbooks/by-slug/doomed-wb"), {})).json();
    const rep = await (await t.api("PUT", d("/reports/by-public-id/DoomedRepor1"), { name: "r" })).json();
    const refused = await (await t.api("PUT", d("/workbooks/by-slug/not-analysts"), {})).json();
    await t.api("PUT", d("/grants"), { objectType: "workbook", objectId: refused.id, principalType: "user", principalId: analyst.id, level: "edit" });
    const asAnalyst = await (await t.api("POST", d("/workspace/bulk-delete"), { items: [{ type: "WORKBOOK", id: refused.id }] }, analyst.token)).json();
    expect(asAnalyst.failed).toEqual([expect.objectContaining({ code: "forbidden" })]);
    const res = await (
      await t.api("POST", d("/workspace/bulk-delete"), {
        items: [
          { type: "FOLDER", id: f.id },
          { type: "WORKBOOK", id: wb.id },
          { type: "REPORT", id: rep.id },
          { type: "WORKBOOK", id: 999999 },
        ],
      })
    ).json();
    expect(res.succeeded).toHaveLength(3);
    expect(res.failed).toEqual([expect.objectContaining({ id: 999999, code: "not_found" })]);
    expect(await t.database.db.select().from(workbooks).where(eq(workbooks.id, inside.id))).toHaveLength(0);
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ type: "WORKBOOK", id: i + 1 }));
    for (const op of ["bulk-delete", "bulk-move"]) {
      const r = await t.api("POST", d(`/workspace/${op}`), { items: tooMany, targetFolderId: null });
      expect(r.status).toBe(400);
      expect((await r.json()).details[0].path).toEqual(["items"]);
    }
    expect((await t.api("POST", d("/workspace/bulk-delete"), { items: [] })).status).toBe(400);
    expect((await t.api("POST", d("/workspace/bulk-delete"), { items: [{ type: "CHART", id: 1 }] })).status).toBe(400);
  });

  it("publishes a draft idempotently with report snapshots frozen at publish", async () => {
    const rep = await (
      await t.api("PUT", d("/reports/by-public-id/SnapReport01"), { name: "Orders", kind: "table", query: { measures: ["orders.count"] }, meta: { note: "n" } })
    ).json();
    const wb = await (await t.api("PUT", d("/workbooks/by-slug/publish-me"), {})).json();
    expect((await t.api("POST", d(`/workbooks/${wb.id}/dashboard/publish`))).status).toBe(400);
    const draft = {
      title: "Sales",
      widgets: [
        { id: "c1", type: "CHART", position: { x: 0, y: 0, w: 6, h: 4 }, config: { reportId: rep.id } },
        { id: "c2", type: "CHART", position: { x: 6, y: 0, w: 6, h: 4 }, config: { reportPublicId: "SnapReport01" } },
        { id: "ai", type: "AI", position: { x: 0, y: 4, w: 12, h: 4 } },
      ],
    };
    const put = await t.api("PUT", d(`/workbooks/${wb.id}/dashboard/draft`), draft);
    expect((await put.json()).dashboardDraft).toEqual(draft);
    expect((await t.api("PUT", d(`/workbooks/${wb.id}/dashboard/draft`), { widgets: [{ id: "x" }] })).status).toBe(400);
    const pub = await (await t.api("POST", d(`/workbooks/${wb.id}/dashboard/publish`))).json();
    expect(pub).toMatchObject({ status: "published", versionNumber: 1, workbookId: wb.id, title: "Sales", config: draft });
    expect(pub.publicId).toMatch(/^[0-9A-Za-z]{12}$/);
    expect(pub.reportSnapshots).toEqual([
      expect.objectContaining({
        reportId: rep.id,
        versionNumber: 1,
        name: "Orders",
        kind: "table",
        meta: { note: "n", query: { measures: ["orders.count"] } },
      }),
    ]);
    const again = await (await t.api("POST", d(`/workbooks/${wb.id}/dashboard/publish`))).json();
    expect(again.versionId).toBe(pub.versionId);
    // Editing the report does not change the published snapshot until the next publish.
    await t.api("PUT", d("/reports/by-public-id/SnapReport01"), { name: "Orders v2" });
    const view = await (await t.api("GET", d(`/workbooks/${wb.id}`))).json();
    expect(view.publishedDashboard.reportSnapshots[0].name).toBe("Orders");
    expect(view.dashboardPublished).toEqual(draft);
    const v2 = await (await t.api("POST", d(`/workbooks/${wb.id}/dashboard/publish`))).json();
    expect(v2.versionNumber).toBe(2);
    expect(v2.reportSnapshots[0]).toMatchObject({ name: "Orders v2", versionNumber: 2 });
    // A draft referencing a missing report is refused with the widget's path, when written (and
    // when published: access/cross-tenant-writes.test.ts publishes a draft stored unchecked).
    const bad = await t.api("PUT", d("/workbooks/by-slug/publish-me"), {
      meta: { dashboardDraft: { widgets: [{ id: "c", type: "CHART", position: { x: 0, y: 0, w: 1, h: 1 }, config: { reportId: 999999 } }] } },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).details[0].path).toEqual(["meta", "dashboardDraft", "widgets", 0, "config", "reportId"]);

    // AI widget threads attach to AI widgets of the published version.
    const thread = (body: unknown) => t.api("POST", d(`/workbooks/${wb.id}/dashboard/ai-widget-thread`), body);
    expect((await thread({ threadId: "t1", widgetId: "ai" })).status).toBe(200);
    expect((await thread({ threadId: "t1", widgetId: "c1" })).status).toBe(400);
    expect((await thread({ threadId: "t1", widgetId: "nope" })).status).toBe(400);
    const stale = await thread({ threadId: "t1", widgetId: "ai", checksum: "0".repeat(64) });
    expect(stale.status).toBe(409);
    expect((await stale.json()).code).toBe("stale_checksum");
    const unpublished = await (await t.api("PUT", d("/workbooks/by-slug/never-published"), {})).json();
    expect((await t.api("POST", d(`/workbooks/${unpublished.id}/dashboard/ai-widget-thread`), { threadId: "t", widgetId: "ai" })).status).toBe(409);
  });

  it("refuses dashboard and folder operations without the needed access, and allows them with it", async () => {
    const wb = await (
      await t.api("PUT", d("/workbooks/by-slug/guarded-dash"), {
        meta: { dashboardDraft: { title: "G", widgets: [{ id: "ai", type: "AI", position: { x: 0, y: 0, w: 1, h: 1 } }] } },
      })
    ).json();
    const f = await folder("Guarded folder");
    const as = analyst.token;
    const publish = () => t.api("POST", d(`/workbooks/${wb.id}/dashboard/publish`), undefined, as);
    const draft = () => t.api("PUT", d(`/workbooks/${wb.id}/dashboard/draft`), { title: "H" }, as);
    const thread = () => t.api("POST", d(`/workbooks/${wb.id}/dashboard/ai-widget-thread`), { threadId: "t", widgetId: "ai" }, as);
    expect((await publish()).status).toBe(404);
    expect((await draft()).status).toBe(404);
    expect((await t.api("POST", d(`/workbooks/${wb.id}/dashboard/publish`))).status).toBe(200);
    expect((await thread()).status).toBe(404);
    expect((await t.api("PUT", d(`/folders/${f.id}`), { name: "renamed" }, as)).status).toBe(404);
    expect((await t.api("DELETE", d(`/folders/${f.id}`), undefined, as)).status).toBe(404);
    const grant = (objectType: string, objectId: number, level: string) =>
      t.api("PUT", d("/grants"), { objectType, objectId, principalType: "user", principalId: analyst.id, level });
    await grant("workbook", wb.id, "read");
    await grant("folder", f.id, "read");
    expect((await thread()).status).toBe(200);
    expect((await publish()).status).toBe(403);
    expect((await draft()).status).toBe(403);
    expect((await t.api("PUT", d(`/folders/${f.id}`), { name: "renamed" }, as)).status).toBe(403);
    expect((await t.api("POST", d("/folders"), { name: "child", parentId: f.id }, as)).status).toBe(403);
    await grant("workbook", wb.id, "edit");
    await grant("folder", f.id, "edit");
    expect((await draft()).status).toBe(200);
    expect((await publish()).status).toBe(200);
    expect((await t.api("PUT", d(`/folders/${f.id}`), { name: "renamed" }, as)).status).toBe(200);
    expect((await t.api("PUT", d(`/folders/${f.id}`), { parentId: null }, as)).status).toBe(403);
    expect((await t.api("DELETE", d(`/folders/${f.id}`), undefined, as)).status).toBe(403);
    expect((await t.api("POST", d("/folders"), { name: "child", parentId: f.id }, as)).status).toBe(201);
    await grant("folder", f.id, "manage");
    expect((await t.api("DELETE", d(`/folders/${f.id}`), undefined, as)).status).toBe(204);
    const viewer = await (await t.api("POST", "/api/v1/users/", { email: "ws-viewer@example.com" })).json();
    const vt = (await createApiKey(t.database.db, { userId: viewer.id, name: "v" })).token;
    expect((await t.api("POST", d("/folders"), { name: "v" }, vt)).status).toBe(403);
    expect((await t.api("POST", d(`/workbooks/${wb.id}/duplicate`), {}, vt)).status).toBe(404);
    await t.api("PUT", d("/grants"), { objectType: "workbook", objectId: wb.id, principalType: "user", principalId: viewer.id, level: "read" });
    expect((await t.api("POST", d(`/workbooks/${wb.id}/duplicate`), {}, vt)).status).toBe(403);
  });

  it("administers users: create, change role, delete; only admins", async () => {
    const res = await t.api("POST", "/api/v1/users/", { email: "new@example.com", firstName: "New" });
    expect(res.status).toBe(201);
    const user = await res.json();
    expect(user).toMatchObject({ email: "new@example.com", role: "viewer", status: "active" });
    expect((await t.api("POST", "/api/v1/users/", { email: "NEW@example.com" })).status).toBe(409);
    expect((await t.api("POST", "/api/v1/users/", { email: "not-an-email" })).status).toBe(400);
    expect((await t.api("POST", "/api/v1/users/", { email: "x@example.com" }, analyst.token)).status).toBe(403);
    const { token } = await createApiKey(t.database.db, { userId: user.id, name: "k" });
    expect((await t.api("PUT", d("/workbooks/by-slug/by-new-user"), {}, token)).status).toBe(403);
    const promoted = await t.api("PUT", `/api/v1/users/${user.id}`, { role: "ai_bi_user" });
    expect((await promoted.json()).role).toBe("ai_bi_user");
    expect((await t.api("PUT", d("/workbooks/by-slug/by-new-user"), {}, token)).status).toBe(200);
    expect((await t.api("PUT", `/api/v1/users/${user.id}`, { role: "owner" })).status).toBe(400);
    expect((await t.api("PUT", `/api/v1/users/${user.id}`, { role: "admin" }, analyst.token)).status).toBe(403);
    // The user owns a workbook: the first delete deactivates them, the second deletes them.
    expect((await t.api("DELETE", `/api/v1/users/${user.id}`)).status).toBe(204);
    expect((await t.api("PUT", d("/workbooks/by-slug/by-new-user"), {}, token)).status).toBe(401);
    expect((await t.api("GET", `/api/v1/users/${user.id}`)).status).toBe(200);
    expect((await t.api("DELETE", `/api/v1/users/${user.id}`)).status).toBe(204);
    expect((await t.api("DELETE", `/api/v1/users/${user.id}`)).status).toBe(404);
  });
});
