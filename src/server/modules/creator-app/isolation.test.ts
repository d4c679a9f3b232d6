import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creatorMembers, embedUsers, users } from "../../db/schema";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

/**
 * The isolation matrix of creator mode: tenants × roles × operations. Embed creators act as
 * ai_bi_user of their tenant — a personal space, the tenant's shared space, read-only shares to
 * their own tenant's groups — and never reach anything of another tenant or deployment.
 */
describe.each(storageKinds)("creator mode isolation (%s)", (storage) => {
  let t: TestPlatform;
  let dep: number;
  let otherDep: number;
  const d = (p: string, id = dep) => `/api/v1/deployments/${id}${p}`;
  const tok: Record<string, string> = {};
  let platformViewer: string;
  let platformCreator: string;

  async function session(body: Record<string, unknown>, deploymentId = dep) {
    const gen = await t.api("POST", "/api/v1/embed/generate-session", { deploymentId, ...body });
    expect(gen.status).toBe(200);
    const { sessionId } = await gen.json();
    const ex = await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null);
    expect(ex.status).toBe(200);
    return (await ex.json()).token as string;
  }
  const json = async (res: Response | Promise<Response>, status: number) => {
    const r = await res;
    const body = r.status === 204 ? null : await r.json();
    expect({ status: r.status, body }).toMatchObject({ status });
    return body;
  };

  // acme-a's personal objects, the acme shared space, globex's own.
  let folderA: number;
  let workbookA: number;
  let reportA: { id: number; publicId: string };
  let acmeShared: number;
  let globexShared: number;
  let workbookB: number;
  let workbookG: number;
  let platformWorkbook: number;

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    [dep, otherDep] = await t.addDeployments("creator-iso", "creator-other");
    const defs = [{ name: "finance" }, { name: "sales" }];
    tok.acmeA = await session({
      externalId: "a@acme.test",
      embedTenantName: "acme-corp",
      creatorMode: true,
      tenantGroupDefinitions: defs,
      tenantGroups: ["finance"],
    });
    tok.acmeB = await session({ externalId: "b@acme.test", embedTenantName: "acme-corp", creatorMode: true, tenantGroups: ["sales"] });
    tok.acmeC = await session({ externalId: "c@acme.test", embedTenantName: "acme-corp", creatorMode: { showMemberNames: true }, tenantGroups: ["finance"] });
    tok.acmeViewer = await session({ externalId: "v@acme.test", embedTenantName: "acme-corp", tenantGroups: ["finance"] });
    tok.globexG = await session({
      externalId: "g@globex.test",
      embedTenantName: "globex-inc",
      creatorMode: true,
      tenantGroupDefinitions: defs,
      tenantGroups: ["finance"],
    });
    tok.globexViewer = await session({ externalId: "gv@globex.test", embedTenantName: "globex-inc" });
    tok.acmeOtherDep = await session({ externalId: "a@acme.test", embedTenantName: "acme-corp", creatorMode: true }, otherDep);
    platformViewer = (await t.addUser("iso-viewer@example.com", "viewer")).token;
    platformCreator = (await t.addUser("iso-creator@example.com", "ai_bi_user")).token;

    const homeA = await json(t.api("GET", d("/app/home"), undefined, tok.acmeA), 200);
    acmeShared = homeA.me.sharedFolderId;
    globexShared = (await json(t.api("GET", d("/app/home"), undefined, tok.globexG), 200)).me.sharedFolderId;
    folderA = (await json(t.api("POST", d("/folders"), { name: "Acme private" }, tok.acmeA), 201)).id;
    workbookA = (await json(t.api("POST", d("/workbooks"), { name: "Revenue by country", folderId: folderA }, tok.acmeA), 201)).id;
    reportA = await json(t.api("POST", d(`/app/workbooks/${workbookA}/reports`), { name: "Revenue", kind: "table" }, tok.acmeA), 201);
    workbookB = (await json(t.api("POST", d("/workbooks"), { name: "Acme shared plan", folderId: acmeShared }, tok.acmeB), 201)).id;
    workbookG = (await json(t.api("POST", d("/workbooks"), { name: "Globex revenue" }, tok.globexG), 201)).id;
    platformWorkbook = (await json(t.api("POST", d("/workbooks"), { name: "Internal revenue" }), 201)).id;
  });
  afterAll(() => t?.close());

  it("gives every creator of a tenant one shared space and each tenant its own", () => {
    expect(acmeShared).toBeGreaterThan(0);
    expect(globexShared).toBeGreaterThan(0);
    expect(globexShared).not.toBe(acmeShared);
  });

  it("opens the app only for creator sessions and platform users", async () => {
    await json(t.api("GET", d("/app/home"), undefined, tok.acmeViewer), 403);
    await json(t.api("GET", d("/workspace"), undefined, tok.acmeViewer), 403);
    await json(t.api("GET", d("/app/home"), undefined, null), 401);
    const c = await json(t.api("GET", d("/app/home"), undefined, tok.acmeC), 200);
    expect(c.me).toMatchObject({ mode: "signed", embedTenant: "acme-corp", role: "ai_bi_user", canCreate: true, sharedFolderId: acmeShared });
    const p = await json(t.api("GET", d("/app/home"), undefined, platformViewer), 200);
    expect(p.me).toMatchObject({ mode: "private", sharedFolderId: null, canCreate: false });
  });

  it("keeps a creator's session inside its deployment", async () => {
    await json(t.api("GET", d("/app/home", otherDep), undefined, tok.acmeA), 404);
    await json(t.api("GET", d(`/workbooks/${workbookA}`), undefined, tok.acmeOtherDep), 404);
    await json(t.api("GET", d(`/workbooks/${workbookA}`, otherDep), undefined, tok.acmeOtherDep), 404);
  });

  // Every operation on acme-a's personal workbook, by every other caller.
  const ops: [string, (id: number) => [string, string, unknown?]][] = [
    ["read", (id) => ["GET", `/workbooks/${id}`]],
    ["rename", (id) => ["PUT", `/workbooks/${id}`, { name: "hijacked" }]],
    ["draft", (id) => ["PUT", `/workbooks/${id}/dashboard/draft`, { title: "x", widgets: [] }]],
    ["publish", (id) => ["POST", `/workbooks/${id}/dashboard/publish`]],
    ["duplicate", (id) => ["POST", `/workbooks/${id}/duplicate`, {}]],
    ["favorite", (id) => ["PUT", `/workbooks/${id}/favorite`]],
    ["reports", (id) => ["GET", `/app/workbooks/${id}/reports`]],
    ["add report", (id) => ["POST", `/app/workbooks/${id}/reports`, { name: "x" }]],
    ["shares", (id) => ["GET", `/app/shares/workbook/${id}`]],
    ["share", (id) => ["PUT", `/app/shares/workbook/${id}`, { shared: [{ kind: "all_embed_users" }] }]],
    ["recent", (id) => ["PUT", `/app/recents/${id}`]],
    ["delete", (id) => ["DELETE", `/workbooks/${id}`]],
  ];
  it.each(ops)("refuses %s of a personal workbook to other creators, other tenants and unshared platform users", async (_name, op) => {
    for (const who of ["acmeB", "acmeC", "globexG"]) {
      const [method, path, body] = op(workbookA);
      const res = await t.api(method, d(path), body, tok[who]);
      expect({ who, status: res.status }).toEqual({ who, status: 404 });
    }
    const [method, path, body] = op(workbookA);
    expect((await t.api(method, d(path), body, platformViewer)).status).toBe(404);
    expect((await t.api(method, d(path), body, tok.acmeViewer)).status).toBe(403);
  });

  it("refuses every cross-tenant path to the other tenant's objects, the report and folder included", async () => {
    for (const [method, path, body] of [
      ["GET", `/reports/${reportA.id}`],
      ["PUT", `/reports/by-public-id/${reportA.publicId}`, { name: "x" }],
      ["DELETE", `/reports/${reportA.id}`],
      ["GET", `/folders/${folderA}`],
      ["PUT", `/folders/${folderA}`, { name: "x" }],
      ["DELETE", `/folders/${folderA}`],
      ["POST", "/workbooks", { name: "in their folder", folderId: folderA }],
      ["POST", "/folders", { name: "in their space", parentId: acmeShared }],
      ["GET", `/folders/${acmeShared}`],
      ["GET", `/workspace?folderId=${acmeShared}`],
      ["GET", `/app/shares/folder/${acmeShared}`],
    ] as [string, string, unknown?][]) {
      const res = await t.api(method, d(path), body, tok.globexG);
      expect({ path, method, refused: [403, 404].includes(res.status) }).toEqual({ path, method, refused: true });
    }
    const bulk = await json(
      t.api(
        "POST",
        d("/workspace/bulk-delete"),
        {
          items: [
            { type: "WORKBOOK", id: workbookA },
            { type: "FOLDER", id: acmeShared },
            { type: "REPORT", id: reportA.id },
            { type: "WORKBOOK", id: workbookG },
          ],
        },
        tok.globexG,
      ),
      200,
    );
    expect(bulk.succeeded).toEqual([{ type: "WORKBOOK", id: workbookG }]);
    expect(bulk.failed.map((f: { id: number; code: string }) => [f.id, f.code])).toEqual([
      [workbookA, "not_found"],
      [acmeShared, "not_found"],
      [reportA.id, "not_found"],
    ]);
    const moved = await json(t.api("POST", d("/workspace/bulk-move"), { items: [{ type: "WORKBOOK", id: workbookA }], targetFolderId: null }, tok.acmeB), 200);
    expect(moved.failed[0]).toMatchObject({ id: workbookA, code: "not_found" });
    await json(t.api("POST", d("/workspace/bulk-move"), { items: [{ type: "WORKBOOK", id: workbookG }], targetFolderId: acmeShared }, tok.globexG), 404);
  });

  it("lists and searches only the caller's own tenant", async () => {
    const names = async (token: string, path: string) =>
      ((await json(t.api("GET", d(path), undefined, token), 200)).items as { name: string }[]).map((i) => i.name);
    expect(await names(tok.globexG, "/workspace")).toEqual(["Shared"]);
    expect(await names(tok.globexG, "/app/search?q=revenue")).toEqual([]);
    expect(await names(tok.globexG, "/workbooks")).toEqual([]);
    expect(await names(tok.globexG, "/reports")).toEqual([]);
    expect((await names(tok.acmeA, "/app/search?q=revenue")).sort()).toEqual(["Revenue", "Revenue by country"]);
    expect(await names(tok.acmeB, "/workspace")).toEqual(["Shared"]);
    expect(await names(tok.acmeB, `/workspace?folderId=${acmeShared}`)).toEqual(["Acme shared plan"]);
    expect(await names(tok.acmeA, "/workspace")).toEqual(["Shared", "Acme private"]);
    // Platform content stays out of every embed creator's sight.
    await json(t.api("GET", d(`/workbooks/${platformWorkbook}`), undefined, tok.acmeA), 404);
    expect(await names(tok.acmeA, "/app/search?q=internal")).toEqual([]);
  });

  it("lets every creator of the tenant edit the shared space, and only its maker delete", async () => {
    const wb = await json(t.api("PUT", d(`/workbooks/${workbookB}`), { name: "Acme shared plan v2" }, tok.acmeA), 200);
    expect(wb.name).toBe("Acme shared plan v2");
    await json(t.api("DELETE", d(`/workbooks/${workbookB}`), undefined, tok.acmeA), 403);
    await json(t.api("PUT", d(`/workbooks/${workbookB}`), { name: "x" }, tok.globexG), 404);
    await json(t.api("DELETE", d(`/folders/${acmeShared}`), undefined, tok.acmeA), 403);
  });

  it("shares read-only with the tenant's groups, never with another tenant's", async () => {
    // globex has a group called finance too: sharing with it from acme reaches acme's finance only.
    const s = await json(t.api("PUT", d(`/app/shares/workbook/${workbookA}`), { shared: [{ kind: "embed_group", name: "finance" }] }, tok.acmeA), 200);
    expect(s.shared).toEqual([{ kind: "embed_group", name: "finance" }]);
    expect(s.available.map((g: { name: string }) => g.name)).toEqual(["finance", "sales"]);
    await json(t.api("PUT", d(`/app/shares/workbook/${workbookA}`), { shared: [{ kind: "embed_group", name: "nobody" }] }, tok.acmeA), 404);

    await json(t.api("GET", d(`/workbooks/${workbookA}`), undefined, tok.acmeC), 200);
    await json(t.api("GET", d(`/reports/${reportA.id}`), undefined, tok.acmeC), 200);
    await json(t.api("PUT", d(`/workbooks/${workbookA}`), { name: "x" }, tok.acmeC), 403);
    await json(t.api("DELETE", d(`/workbooks/${workbookA}`), undefined, tok.acmeC), 403);
    await json(t.api("PUT", d(`/app/shares/workbook/${workbookA}`), { shared: [] }, tok.acmeC), 403);
    await json(t.api("GET", d(`/workbooks/${workbookA}`), undefined, tok.acmeB), 404);
    await json(t.api("GET", d(`/workbooks/${workbookA}`), undefined, tok.globexG), 404);
    const homeC = await json(t.api("GET", d("/app/home"), undefined, tok.acmeC), 200);
    expect(homeC.shared.map((i: { id: number }) => i.id)).toEqual([workbookA]);

    await json(t.api("PUT", d(`/app/shares/workbook/${workbookA}`), { shared: [{ kind: "all_embed_users" }] }, tok.acmeA), 200);
    await json(t.api("GET", d(`/workbooks/${workbookA}`), undefined, tok.acmeB), 200);
    await json(t.api("GET", d(`/workbooks/${workbookA}`), undefined, tok.globexG), 404);
    // No longer shared with finance alone: the set was replaced.
    await json(t.api("PUT", d(`/app/shares/workbook/${workbookA}`), { shared: [] }, tok.acmeA), 200);
    await json(t.api("GET", d(`/workbooks/${workbookA}`), undefined, tok.acmeB), 404);
    await json(t.api("GET", d(`/workbooks/${workbookA}`), undefined, tok.acmeC), 404);
  });

  it("publishes to the tenant's embed viewers only once shared with all_embed_users", async () => {
    await json(t.api("PUT", d(`/workbooks/${workbookA}/dashboard/draft`), { title: "Revenue", widgets: [] }, tok.acmeA), 200);
    const published = await json(t.api("POST", d(`/workbooks/${workbookA}/dashboard/publish`), undefined, tok.acmeA), 200);
    const view = (token: string) => t.api("GET", `/api/v1/embed/dashboard/${published.publicId}`, undefined, token);
    expect((await view(tok.acmeViewer)).status).toBe(403);
    await json(t.api("PUT", d(`/app/shares/workbook/${workbookA}`), { shared: [{ kind: "all_embed_users" }] }, tok.acmeA), 200);
    expect((await view(tok.acmeViewer)).status).toBe(200);
    expect((await view(tok.globexViewer)).status).toBe(403);
  });

  it("keeps the management API for platform users: creators cannot grant, platform admins see every tenant", async () => {
    await json(
      t.api("PUT", d("/grants"), { objectType: "workbook", objectId: workbookA, principalType: "user", principalId: 1, level: "manage" }, tok.acmeA),
      403,
    );
    await json(t.api("GET", d(`/workbooks/${workbookA}`)), 200);
    await json(t.api("GET", d(`/workbooks/${workbookG}`)), 404); // deleted by globex above
    // Platform users share with the grants API; the app's share operation is for embed creators.
    await json(t.api("GET", d("/app/shares/workbook/" + workbookA)), 403);
    await json(t.api("GET", d("/app/shares/workbook/" + workbookA), undefined, platformCreator), 404);
    await json(t.api("GET", "/api/v1/users/1", undefined, tok.acmeA), 403);
  });

  it("never maps a creator onto an existing account, even one made to look like theirs", async () => {
    const gen = await json(
      t.api("POST", "/api/v1/embed/generate-session", { deploymentId: dep, externalId: "eve@acme.test", embedTenantName: "acme-corp", creatorMode: true }),
      200,
    );
    const db = t.deps.db;
    const [eu] = await db.select({ id: embedUsers.id }).from(embedUsers).where(eq(embedUsers.externalId, "eve@acme.test"));
    const [decoy] = await db
      .insert(users)
      .values({ email: `${eu!.id}.acme-corp@embed.invalid`, role: "admin" })
      .returning({ id: users.id });
    const { token } = await json(t.api("POST", "/api/v1/embed/session/token", { sessionId: gen.sessionId }, null), 200);
    const home = await json(t.api("GET", d("/app/home"), undefined, token), 200);
    expect(home.me.role).toBe("ai_bi_user");
    const [member] = await db.select().from(creatorMembers).where(eq(creatorMembers.embedUserId, eu!.id));
    expect(member!.userId).not.toBe(decoy!.id);
    await json(t.api("GET", d(`/workbooks/${platformWorkbook}`), undefined, token), 404);
  });
});
