import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SemanticQuery } from "../../../schema/semantic-query";
import { prepareQueryTestData, type QueryTestData } from "../query/query-test-data";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { readNdjson, type Line } from "./chat-test-support";
import { createShopDeployment, embedSession } from "../../testing/shop-deployment";

/**
 * "Save as report" from the chat: who may (platform users with ai_bi_user or higher, embed
 * creators whose session allows `allowChatWorkspaceAuthoring`), where to (personal space, a
 * folder or a workbook they can edit), what is saved (the stored answer's query and chart),
 * and the refusals — enforced by the server whatever a client shows.
 */
let data: QueryTestData;
beforeAll(async () => {
  data = await prepareQueryTestData({ rows: 2000, postgres: false });
}, 60_000);
afterAll(() => data?.cleanup());

describe.each(storageKinds)("chat: save an answer as a report (%s storage)", (storage) => {
  let t: TestPlatform;
  let deploymentId: number;
  const tok: Record<string, string> = {};
  const d = (p: string) => `/api/v1/deployments/${deploymentId}${p}`;

  const session = async (body: Record<string, unknown>) => (await embedSession(t, deploymentId, body)).token;

  /** A thread of the caller with one answered question; the answer's id and its stream. */
  async function answered(token: string, question: string) {
    const created = await t.api("POST", d("/chat/threads"), {}, token);
    expect(created.status).toBe(201);
    const threadId = ((await created.json()) as { id: string }).id;
    const res = await t.api("POST", d(`/chat/threads/${threadId}/messages`), { content: question }, token);
    expect(res.status).toBe(200);
    const lines = await readNdjson(res);
    const state = lines[lines.length - 1]!.__state__ as { id: string; status: string };
    expect(state.status).toBe("completed");
    return { threadId, messageId: state.id, lines };
  }

  const save = (token: string, a: { threadId: string; messageId: string }, body: unknown) =>
    t.api("POST", d(`/chat/threads/${a.threadId}/messages/${a.messageId}/report`), body, token);

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    deploymentId = await createShopDeployment(t, data.duckdbPath);
    const acme = { externalId: "ann@acme.test", embedTenantName: "acme-corp" };
    tok.author = await session({ ...acme, creatorMode: true, settings: { allowChatWorkspaceAuthoring: true } });
    // The same creator, in a session that does not allow authoring from the chat.
    tok.authorOff = await session({ ...acme, creatorMode: true });
    // Authoring allowed in the creator settings object.
    tok.authorObj = await session({ externalId: "bob@acme.test", embedTenantName: "acme-corp", creatorMode: { allowChatWorkspaceAuthoring: true } });
    tok.viewer = await session({ externalId: "vic@acme.test", embedTenantName: "acme-corp", settings: { allowChatWorkspaceAuthoring: true } });
    tok.noAi = await session({ ...acme, creatorMode: true, settings: { allowChatWorkspaceAuthoring: true, allowAi: false } });
    tok.globex = await session({
      externalId: "gil@globex.test",
      embedTenantName: "globex-inc",
      creatorMode: true,
      settings: { allowChatWorkspaceAuthoring: true },
    });
    tok.platformViewer = (await t.addUser("chat-viewer@example.com", "viewer")).token;
    tok.platformCreator = (await t.addUser("chat-creator@example.com", "ai_bi_user")).token;
  }, 60_000);
  afterAll(() => t?.close());

  it("tells each caller whether they may save, and where", async () => {
    const dest = async (token: string) => {
      const res = await t.api("GET", d("/chat/report-destinations"), undefined, token);
      expect(res.status).toBe(200);
      return (await res.json()) as { allowed: boolean; reason?: string; folders: { id: number; name: string }[] };
    };
    const author = await dest(tok.author!);
    expect(author.allowed).toBe(true);
    // The tenant's shared space is a folder the creator can edit.
    expect(author.folders.map((f) => f.name)).toContain("Shared");
    expect((await dest(tok.authorObj!)).allowed).toBe(true);
    expect(await dest(tok.authorOff!)).toMatchObject({ allowed: false, reason: expect.stringMatching(/allowChatWorkspaceAuthoring/) });
    expect(await dest(tok.viewer!)).toMatchObject({ allowed: false, reason: expect.stringMatching(/creator/) });
    expect(await dest(tok.platformViewer!)).toMatchObject({ allowed: false, reason: expect.stringMatching(/ai_bi_user/) });
    expect((await dest(tok.platformCreator!)).allowed).toBe(true);
    expect((await t.api("GET", d("/chat/report-destinations"), undefined, tok.noAi)).status).toBe(403);
  });

  it("saves an answer's query and chart into the creator's personal space, and the report gives the answer's rows", async () => {
    const a = await answered(tok.author!, "revenue by country");
    const res = await save(tok.author!, a, { name: "Revenue by country", destination: { kind: "personal" } });
    expect(res.status, await res.clone().text()).toBe(201);
    const saved = (await res.json()) as {
      report: { id: number; publicId: string; name: string };
      workbook: { id: number; name: string; created: boolean };
      folderPath: unknown[];
      appPath: string;
    };
    expect(saved).toMatchObject({ report: { name: "Revenue by country" }, workbook: { name: "Revenue by country", created: true }, folderPath: [] });
    expect(saved.appPath).toBe(`/d/${deploymentId}/app/workbooks/${saved.workbook.id}/reports/${saved.report.id}`);

    const report = (await (await t.api("GET", d(`/reports/${saved.report.id}`), undefined, tok.author)).json()) as {
      query: SemanticQuery;
      kind: string;
      spec: Record<string, unknown>;
      workbookId: number;
    };
    const answerQuery = (a.lines.find((l) => l.type === "query") as Line & { query: SemanticQuery }).query;
    expect(report.query).toEqual(answerQuery);
    expect(report.workbookId).toBe(saved.workbook.id);
    // The answer had a chart: the report keeps it, without the answer's rows.
    expect(report.kind).toBe("vega");
    expect(report.spec.mark).toBeTruthy();
    expect(report.spec.data).toBeUndefined();
    // The report's query gives the creator the rows the answer showed.
    const rows = (await (await t.api("POST", d("/query"), { query: report.query }, tok.author)).json()) as { data: unknown[] };
    expect((a.lines.find((l) => l.type === "table") as Line & { rows: unknown[] }).rows).toEqual(rows.data);
    // It is in the creator's own space, which nobody else of the tenant sees.
    const home = (await (await t.api("GET", d("/workspace"), undefined, tok.author)).json()) as { items: { type: string; id: number }[] };
    expect(home.items.some((i) => i.type === "WORKBOOK" && i.id === saved.workbook.id)).toBe(true);
    expect((await t.api("GET", d(`/reports/${saved.report.id}`), undefined, tok.authorObj)).status).toBe(404);
  });

  it("keeps a growth answer's period comparison in the report", async () => {
    const a = await answered(tok.author!, "revenue growth by month");
    const res = await save(tok.author!, a, { name: "Revenue growth" });
    expect(res.status).toBe(201);
    const { report } = (await res.json()) as { report: { id: number } };
    const saved = (await (await t.api("GET", d(`/reports/${report.id}`), undefined, tok.author)).json()) as { periodComparisons: unknown };
    const asked = a.lines.find((l) => l.type === "query") as Line & { periodComparisons: unknown };
    expect(asked.periodComparisons).toBeTruthy();
    expect(saved.periodComparisons).toEqual(asked.periodComparisons);
  });

  it("saves into a folder or a workbook the caller can edit, never one of another tenant", async () => {
    const dests = (await (await t.api("GET", d("/chat/report-destinations"), undefined, tok.author)).json()) as { folders: { id: number; name: string }[] };
    const shared = dests.folders.find((f) => f.name === "Shared")!;
    const a = await answered(tok.author!, "orders by status");
    const inFolder = await save(tok.author!, a, { name: "Orders by status", destination: { kind: "folder", folderId: shared.id } });
    expect(inFolder.status, await inFolder.clone().text()).toBe(201);
    const s1 = (await inFolder.json()) as { workbook: { id: number }; folderPath: { id: number; name: string }[] };
    expect(s1.folderPath).toEqual([{ id: shared.id, name: "Shared" }]);
    // Another creator of the tenant sees it in the shared space.
    expect((await t.api("GET", d(`/workbooks/${s1.workbook.id}`), undefined, tok.authorObj)).status).toBe(200);

    // A second answer as a new sheet of that workbook.
    const b = await answered(tok.author!, "revenue by category");
    const inWorkbook = await save(tok.author!, b, { name: "Revenue by category", destination: { kind: "workbook", workbookId: s1.workbook.id } });
    expect(inWorkbook.status).toBe(201);
    const s2 = (await inWorkbook.json()) as { workbook: { id: number; created: boolean } };
    expect(s2.workbook).toMatchObject({ id: s1.workbook.id, created: false });
    const sheets = (await (await t.api("GET", d(`/app/workbooks/${s1.workbook.id}/reports`), undefined, tok.author)).json()) as { items: { name: string }[] };
    expect(sheets.items.map((r) => r.name)).toEqual(["Orders by status", "Revenue by category"]);
    expect((await t.api("GET", d("/chat/report-destinations"), undefined, tok.author)).status).toBe(200);

    // Globex's creator cannot save into acme's shared folder or workbook, and nothing is left behind.
    const g = await answered(tok.globex!, "orders by status");
    const before = (await (await t.api("GET", d("/workspace"), undefined, tok.globex)).json()) as { items: unknown[] };
    expect((await save(tok.globex!, g, { name: "x", destination: { kind: "folder", folderId: shared.id } })).status).toBe(404);
    expect((await save(tok.globex!, g, { name: "x", destination: { kind: "workbook", workbookId: s1.workbook.id } })).status).toBe(404);
    const after = (await (await t.api("GET", d("/workspace"), undefined, tok.globex)).json()) as { items: unknown[] };
    expect(after.items).toHaveLength(before.items.length);
    const globexDest = (await (await t.api("GET", d("/chat/report-destinations"), undefined, tok.globex)).json()) as {
      folders: { id: number }[];
      workbooks: { id: number }[];
    };
    expect(globexDest.folders.some((f) => f.id === shared.id)).toBe(false);
    expect(globexDest.workbooks.some((w) => w.id === s1.workbook.id)).toBe(false);
  });

  it("refuses a session without allowChatWorkspaceAuthoring, a viewer, a platform viewer and allowAi: false (403)", async () => {
    const a = await answered(tok.author!, "total revenue");
    const body = { name: "Total revenue" };
    // The same creator and thread, but a session without the setting.
    const off = await save(tok.authorOff!, a, body);
    expect(off.status).toBe(403);
    expect(((await off.json()) as { message: string }).message).toMatch(/allowChatWorkspaceAuthoring/);
    expect((await save(tok.noAi!, a, body)).status).toBe(403);
    const v = await answered(tok.viewer!, "total revenue");
    expect((await save(tok.viewer!, v, body)).status).toBe(403);
    const p = await answered(tok.platformViewer!, "total revenue");
    expect((await save(tok.platformViewer!, p, body)).status).toBe(403);
    // A platform user who may create content saves (admins see all tenants' rows in their answer).
    const c = await answered(tok.platformCreator!, "total revenue");
    expect((await save(tok.platformCreator!, c, body)).status).toBe(201);
  });

  it("saves only the caller's finished answers that have a query", async () => {
    const a = await answered(tok.author!, "revenue by category");
    // Another user's thread is not found, whatever their rights.
    expect((await save(tok.authorObj!, a, { name: "x" })).status).toBe(404);
    expect((await save(tok.author!, { ...a, messageId: "nope" }, { name: "x" })).status).toBe(404);
    // The question itself is not an answer.
    expect((await save(tok.author!, { ...a, messageId: `${a.messageId}-q` }, { name: "x" })).status).toBe(404);
    const outside = await answered(tok.author!, "who is the CEO");
    expect((await save(tok.author!, outside, { name: "x" })).status).toBe(400);
    // Input is checked at the edge.
    expect((await save(tok.author!, a, { name: "" })).status).toBe(400);
    expect((await save(tok.author!, a, { name: "x", destination: { kind: "folder" } })).status).toBe(400);
    expect((await save(tok.author!, a, { name: "x", query: { measures: ["sales.revenue"] } })).status).toBe(400);
  });
});
