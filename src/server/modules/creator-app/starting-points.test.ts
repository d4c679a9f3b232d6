import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { rewireCharts } from "./starting-points";

/**
 * Starting points: a creator copies a published dashboard they may open (embed access of their
 * tenant) into their own space, its reports along; never one they may not open, never into a
 * folder they may not edit, never across deployments.
 */
describe.each(storageKinds)("app starting points (%s)", (storage) => {
  let t: TestPlatform;
  let dep: number;
  let otherDep: number;
  const d = (p: string, id = dep) => `/api/v1/deployments/${id}${p}`;
  const tok: Record<string, string> = {};
  let demo = "";
  let hidden = "";

  async function session(body: Record<string, unknown>, deploymentId = dep) {
    const gen = await t.api("POST", "/api/v1/embed/generate-session", { deploymentId, ...body });
    const ex = await t.api("POST", "/api/v1/embed/session/token", { sessionId: (await gen.json()).sessionId }, null);
    return (await ex.json()).token as string;
  }
  const json = async (res: Response | Promise<Response>, status: number) => {
    const r = await res;
    const body = r.status === 204 ? null : await r.json();
    expect({ status: r.status, body }).toMatchObject({ status });
    return body;
  };

  /** A platform workbook with a chart in tabs and one beside, published, embeddable for `tenant` (or all). */
  async function publishedDashboard(name: string, tenant: string | null): Promise<string> {
    const res = await t.api("PUT", d(`/reports/by-public-id/${name.slice(0, 4).padEnd(8, "x")}Rep1`), {
      name: `${name} revenue`,
      title: "Revenue by country",
      kind: "table",
      query: { measures: ["sales.revenue"], dimensions: ["sales.country"] },
    });
    expect([200, 201]).toContain(res.status);
    const report = (await res.json()) as { id: number };
    const chart = (id: string) => ({ id, type: "CHART", position: { x: 0, y: 0, w: 6, h: 4 }, config: { reportId: report.id } });
    const draft = {
      title: name,
      widgets: [
        chart("c1"),
        { id: "tabs", type: "TABS_CONTAINER", position: { x: 6, y: 0, w: 6, h: 4 }, config: { tabs: [{ title: "One", widgets: [chart("c2")] }] } },
      ],
    };
    const wb = await json(t.api("POST", d("/workbooks"), { name, meta: { dashboardDraft: draft } }), 201);
    const published = await json(t.api("POST", d(`/workbooks/${wb.id}/dashboard/publish`)), 200);
    await json(t.api("PATCH", `/api/v1/embed/dashboard/${published.publicId}`, { allowEmbed: true }), 200);
    await json(t.api("PUT", d(`/workbooks/${wb.id}/embed-access`), { rules: [{ embedTenantName: tenant, action: "read" }] }), 200);
    return published.publicId as string;
  }

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    [dep, otherDep] = await t.addDeployments("starting-points", "starting-other");
    tok.acme = await session({ externalId: "a@acme.test", embedTenantName: "acme-corp", creatorMode: true });
    tok.acmeB = await session({ externalId: "b@acme.test", embedTenantName: "acme-corp", creatorMode: true });
    tok.acmeViewer = await session({ externalId: "v@acme.test", embedTenantName: "acme-corp" });
    tok.globex = await session({ externalId: "g@globex.test", embedTenantName: "globex-inc", creatorMode: true });
    tok.acmeOther = await session({ externalId: "a@acme.test", embedTenantName: "acme-corp", creatorMode: true }, otherDep);
    demo = await publishedDashboard("Demo sales", null);
    hidden = await publishedDashboard("Acme only", "acme-corp");
  });
  afterAll(() => t?.close());

  it("offers the published dashboards the caller may open", async () => {
    const acme = await json(t.api("GET", d("/app/starting-points"), undefined, tok.acme), 200);
    expect(acme.dashboards.map((x: { publicId: string }) => x.publicId).sort()).toEqual([demo, hidden].sort());
    const globex = await json(t.api("GET", d("/app/starting-points"), undefined, tok.globex), 200);
    expect(globex.dashboards).toEqual([{ publicId: demo, title: "Demo sales" }]);
    await json(t.api("GET", d("/app/starting-points"), undefined, tok.acmeViewer), 403);
  });

  it("titles the dashboards in the asked locale from the model's translations", async () => {
    await json(t.api("PUT", d("/translations/de-DE"), { texts: { "Demo sales": "Demo-Verkäufe" } }), 200);
    const german = await json(t.api("GET", d("/app/starting-points?locale=de-DE"), undefined, tok.globex), 200);
    expect(german.dashboards).toEqual([{ publicId: demo, title: "Demo-Verkäufe" }]);
    const source = await json(t.api("GET", d("/app/starting-points"), undefined, tok.globex), 200);
    expect(source.dashboards).toEqual([{ publicId: demo, title: "Demo sales" }]);
    await json(t.api("GET", d("/app/starting-points?locale=%3Cx%3E"), undefined, tok.globex), 400);
  });

  it("offers no dashboard app and refuses to copy one", async () => {
    const app = { title: "Funnel", kind: "APP", app: { html: "<p>funnel</p>" } };
    const wb = await json(t.api("POST", d("/workbooks"), { name: "Funnel", meta: { dashboardDraft: app } }), 201);
    const published = await json(t.api("POST", d(`/workbooks/${wb.id}/dashboard/publish`)), 200);
    await json(t.api("PATCH", `/api/v1/embed/dashboard/${published.publicId}`, { allowEmbed: true }), 200);
    await json(t.api("PUT", d(`/workbooks/${wb.id}/embed-access`), { rules: [{ embedTenantName: null, action: "read" }] }), 200);
    const offered = await json(t.api("GET", d("/app/starting-points"), undefined, tok.globex), 200);
    expect(offered.dashboards.map((x: { publicId: string }) => x.publicId)).toEqual([demo]);
    await json(t.api("POST", d(`/app/starting-points/dashboards/${published.publicId}/copy`), {}, tok.globex), 409);
  });

  it("copies a published dashboard into a new workbook of the caller's, its reports along", async () => {
    const wb = await json(t.api("POST", d(`/app/starting-points/dashboards/${demo}/copy`), {}, tok.acme), 201);
    expect(wb).toMatchObject({ name: "Demo sales", folderId: null });
    const reports = (await json(t.api("GET", d(`/app/workbooks/${wb.id}/reports`), undefined, tok.acme), 200)).items;
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ title: "Revenue by country", workbookId: wb.id, query: { measures: ["sales.revenue"] } });
    const draft = wb.dashboardDraft;
    expect(draft.widgets[0].config.reportId).toBe(reports[0].id);
    expect(draft.widgets[1].config.tabs[0].widgets[0].config.reportId).toBe(reports[0].id);
    // The creator owns the copy: they publish it; another creator of the tenant does not see it.
    await json(t.api("POST", d(`/workbooks/${wb.id}/dashboard/publish`), undefined, tok.acme), 200);
    await json(t.api("GET", d(`/workbooks/${wb.id}`), undefined, tok.acmeB), 404);
  });

  it("copies into a folder the caller may edit, under the name given", async () => {
    const shared = (await json(t.api("GET", d("/app/home"), undefined, tok.acme), 200)).me.sharedFolderId;
    const wb = await json(t.api("POST", d(`/app/starting-points/dashboards/${demo}/copy`), { folderId: shared, name: "Our sales" }, tok.acme), 201);
    expect(wb).toMatchObject({ name: "Our sales", folderId: shared });
    const globexShared = (await json(t.api("GET", d("/app/home"), undefined, tok.globex), 200)).me.sharedFolderId;
    await json(t.api("POST", d(`/app/starting-points/dashboards/${demo}/copy`), { folderId: globexShared }, tok.acme), 404);
  });

  it("refuses a dashboard the caller may not open, another deployment's, a viewer and bad input, writing nothing", async () => {
    const before = (await json(t.api("GET", d("/workspace"), undefined, tok.globex), 200)).items.length;
    await json(t.api("POST", d(`/app/starting-points/dashboards/${hidden}/copy`), {}, tok.globex), 403);
    await json(t.api("POST", d(`/app/starting-points/dashboards/nosuchdash01/copy`), {}, tok.globex), 404);
    await json(t.api("POST", d(`/app/starting-points/dashboards/${demo}/copy`, otherDep), {}, tok.acmeOther), 404);
    await json(t.api("POST", d(`/app/starting-points/dashboards/${demo}/copy`), {}, tok.acmeViewer), 403);
    await json(t.api("POST", d(`/app/starting-points/dashboards/${demo}/copy`), { folderId: "x" }, tok.globex), 400);
    await json(t.api("POST", d(`/app/starting-points/dashboards/${demo}/copy`), { owner: 1 }, tok.globex), 400);
    expect((await json(t.api("GET", d("/workspace"), undefined, tok.globex), 200)).items.length).toBe(before);
  });
});

describe("rewireCharts", () => {
  it("points charts at the copies and leaves out a chart whose report was not copied", () => {
    const chart = (id: string, reportId: number) => ({
      id,
      type: "CHART" as const,
      position: { x: 0, y: 0, w: 6, h: 4 },
      config: { reportId, reportPublicId: "old" },
    });
    const text = { id: "t", type: "TEXT" as const, position: { x: 0, y: 4, w: 12, h: 2 }, config: { markdown: "Hi" } };
    expect(rewireCharts([chart("a", 1), chart("b", 2), text], new Map([[1, 10]]))).toEqual([{ ...chart("a", 10), config: { reportId: 10 } }, text]);
  });
});
