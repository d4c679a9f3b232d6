import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reports } from "../../db/schema";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

describe.each(storageKinds)("reports API (%s)", (storage) => {
  let t: TestPlatform;
  let dep: number;
  let otherDep: number;
  let analyst: { id: number; token: string };
  let viewer: { id: number; token: string };
  const base = () => `/api/v1/deployments/${dep}/reports`;
  const put = (publicId: string, body: unknown, token?: string) => t.api("PUT", `${base()}/by-public-id/${publicId}`, body, token);

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    [dep, otherDep] = await t.addDeployments("main", "other");
    analyst = await t.addUser("analyst@example.com", "ai_bi_user");
    viewer = await t.addUser("viewer@example.com", "viewer");
  });
  afterAll(() => t?.close());

  it("creates a report by public id, then updates only the fields sent and bumps its version on changes", async () => {
    const res = await put("RevenueByMon", { name: "Revenue", kind: "vega", query: { measures: ["orders.revenue"] }, spec: { mark: "bar" }, meta: { a: 1 } });
    expect(res.status).toBe(200);
    const created = await res.json();
    expect(created).toMatchObject({
      publicId: "RevenueByMon",
      type: "REPORT",
      name: "Revenue",
      kind: "vega",
      versionNumber: 1,
      folderPath: [],
      canEdit: true,
      canManage: true,
    });
    const updated = await (await put("RevenueByMon", { title: "Revenue by month", meta: { b: 2 } })).json();
    expect(updated).toMatchObject({
      id: created.id,
      name: "Revenue",
      title: "Revenue by month",
      meta: { a: 1, b: 2 },
      query: { measures: ["orders.revenue"] },
      versionNumber: 2,
    });
    const same = await (await put("RevenueByMon", { title: "Revenue by month" })).json();
    expect(same.versionNumber).toBe(2);
    expect(same.updatedAt).toBe(updated.updatedAt);
  });

  it("refuses a public id of another deployment with a permanent 409 and bad ids with 400", async () => {
    await put("OwnedElsewhr", { name: "x" });
    const res = await t.api("PUT", `/api/v1/deployments/${otherDep}/reports/by-public-id/OwnedElsewhr`, { name: "y" });
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe("public_id_taken");
    for (const bad of ["short", "has-dash-123", "toolongpublicid"]) {
      const r = await put(bad, { name: "x" });
      expect(r.status, bad).toBe(400);
      expect((await r.json()).details[0].path).toEqual(["publicId"]);
    }
    const unknown = await put("ValidPublic1", { name: "x", colour: 1 });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify((await unknown.json()).details)).toContain("colour");
    expect((await put("ValidPublic1", { kind: "pie" })).status).toBe(400);
    expect((await put("ValidPublic1", [])).status).toBe(400);
    expect((await t.api("PUT", `/api/v1/deployments/999999/reports/by-public-id/ValidPublic1`, {})).status).toBe(404);
  });

  it("applies the access rules of workbooks to reports", async () => {
    expect((await put("ViewerMade01", { name: "v" }, viewer.token)).status).toBe(403);
    expect((await put("AnalystMade", { name: "a" }, analyst.token)).status).toBe(400);
    const mine = await put("AnalystMade1", { name: "a" }, analyst.token);
    expect(mine.status).toBe(200);
    const adminReport = await (await put("AdminMade001", { name: "admin" })).json();
    // Another user's report out of sight answers 404, as if it did not exist.
    expect((await put("AdminMade001", { name: "taken over" }, analyst.token)).status).toBe(404);
    await t.api("PUT", `/api/v1/deployments/${dep}/grants`, {
      objectType: "report",
      objectId: adminReport.id,
      principalType: "user",
      principalId: analyst.id,
      level: "edit",
    });
    const edited = await put("AdminMade001", { name: "edited" }, analyst.token);
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ canEdit: true, canManage: false });
    const folder = await (await t.api("POST", `/api/v1/deployments/${dep}/folders`, { name: "Reports" })).json();
    expect((await put("AdminMade001", { folderId: folder.id }, analyst.token)).status).toBe(403);
  });

  it("connects a report to an external workbook with read access only", async () => {
    const rep = await (await put("Connectable1", { name: "c" })).json();
    const url = `${base()}/${rep.id}/connect-workbook`;
    expect((await t.api("PUT", url, { externalWorkbookId: "sheet-1", resultLocation: "A1" }, viewer.token)).status).toBe(404);
    await t.api("PUT", `/api/v1/deployments/${dep}/grants`, {
      objectType: "report",
      objectId: rep.id,
      principalType: "user",
      principalId: viewer.id,
      level: "read",
    });
    const ok = await t.api("PUT", url, { externalWorkbookId: "sheet-1", resultLocation: "A1", endResultCell: "D20" }, viewer.token);
    expect(ok.status).toBe(200);
    await t.api("PUT", url, { externalWorkbookId: "sheet-2", resultLocation: "B2" }, viewer.token);
    const again = await (await t.api("PUT", url, { externalWorkbookId: "sheet-1", resultLocation: "C3" }, viewer.token)).json();
    expect(again.externalWorkbookPlacements).toEqual([
      { workbookId: "sheet-2", resultLocation: "B2", endResultCell: null },
      { workbookId: "sheet-1", resultLocation: "C3", endResultCell: null },
    ]);
    const filtered = await (await t.api("GET", `${base()}?externalWorkbookId=sheet-2`)).json();
    expect(filtered.items.map((i: { id: number }) => i.id)).toEqual([rep.id]);
    expect((await t.api("PUT", url, { externalWorkbookId: "", resultLocation: "A1" })).status).toBe(400);
  });

  it("lists with cursor pages by name, createdAt and updatedAt, with search and folder filters", async () => {
    const folder = await (await t.api("POST", `/api/v1/deployments/${dep}/folders`, { name: "Listing" })).json();
    for (const [i, name] of ["zeta", "alpha", "mu", "beta", "omega"].entries()) {
      await put(`ListReport0${i}`, { name: `list ${name}`, folderId: folder.id });
    }
    const collect = async (sortBy: string) => {
      const names: string[] = [];
      let after: string | undefined;
      for (let guard = 0; guard < 10; guard++) {
        const page = await (await t.api("GET", `${base()}?folderId=${folder.id}&first=2&sortBy=${sortBy}${after ? `&after=${after}` : ""}`)).json();
        names.push(...page.items.map((r: { name: string }) => r.name));
        expect(page.count).toBe(5);
        expect(page.data).toEqual(page.items);
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      return names;
    };
    expect(await collect("name")).toEqual(["list alpha", "list beta", "list mu", "list omega", "list zeta"]);
    expect(await collect("createdAt")).toEqual(["list omega", "list beta", "list mu", "list alpha", "list zeta"]);
    await put("ListReport02", { title: "touched" });
    expect((await collect("updatedAt"))[0]).toBe("list mu");
    const search = await (await t.api("GET", `${base()}?search=ALPHA`)).json();
    expect(search.items.map((r: { name: string }) => r.name)).toEqual(["list alpha"]);
    const outside = await (await t.api("GET", `${base()}?folderId=root`)).json();
    expect(outside.items.every((r: { folderId: number | null }) => r.folderId === null)).toBe(true);
  });

  it("refuses cursor paging when sorting by lastViewedAt and lists the whole set instead", async () => {
    const a = await (await put("ViewedFirst1", { name: "viewed a" })).json();
    await t.database.db
      .update(reports)
      .set({ lastViewedAt: new Date("2030-01-01") })
      .where(eq(reports.id, a.id));
    for (const q of ["first=10", "after=abc", "first=1&after=abc"]) {
      const res = await t.api("GET", `${base()}?sortBy=lastViewedAt&${q}`);
      expect(res.status, q).toBe(400);
      const body = await res.json();
      expect(body.code).toBe("validation_failed");
      expect(body.message).toMatch(/lastViewedAt/);
    }
    const all = await (await t.api("GET", `${base()}?sortBy=lastViewedAt`)).json();
    expect(all.items[0].id).toBe(a.id);
    expect(all.items.length).toBe(all.count);
    expect(all.pageInfo.hasNextPage).toBe(false);
    expect((await t.api("GET", `${base()}?sortBy=views`)).status).toBe(400);
  });

  it("hides reports the caller cannot read from lists", async () => {
    const list = await (await t.api("GET", `${base()}?first=100`, undefined, analyst.token)).json();
    const publicIds = list.items.map((r: { publicId: string }) => r.publicId);
    expect(publicIds).toContain("AnalystMade1");
    expect(publicIds).toContain("AdminMade001");
    expect(publicIds).not.toContain("RevenueByMon");
    expect(list.count).toBe(list.items.length);
  });
});
