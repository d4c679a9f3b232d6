import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOWNLOAD_FORMATS } from "../../../protocol/constants";
import { EXPORT_FORMATS } from "../../../schema/export-grants";
import { dashboards } from "../../db/schema";
import { seedDemo } from "../../demo/seed";
import { silentLogger } from "../../logger";
import { seedPublishedDashboard } from "../../testing/embed-access-fixtures";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";
import { embedSession } from "../../testing/shop-deployment";
import { EmbedDashboardResponse } from "../dashboards/routes";

/**
 * Export grants per format on every server path an export takes: the rows of a CSV or XLSX
 * (widget and drill-down exports ask `…/query` with `export.format`, also inside a batch), the
 * PNG and PDF pictures (`POST /api/v1/embed/exports` before drawing), what the token exchange
 * and the embed dashboard tell the embed. A refused format is a 403 with its code, and the
 * query does not run.
 */
let t: TestPlatform;
let dir: string;
let deploymentId: number;
let publicId: string;
const restrictedPublicId = "RestrictDl01";

const byCategory = { measures: ["sales.revenue"], dimensions: ["sales.products_category"], order: [["sales.revenue", "desc"]] };

async function session(allowExport?: unknown) {
  return embedSession(t, deploymentId, {
    externalId: "ann",
    embedTenantName: "acme-corp",
    ...(allowExport === undefined ? {} : { settings: { allowExport } }),
  });
}
async function exchanged(allowExport?: unknown) {
  const gen = await t.api("POST", "/api/v1/embed/generate-session", {
    deploymentId,
    externalId: "ann",
    embedTenantName: "acme-corp",
    ...(allowExport === undefined ? {} : { settings: { allowExport } }),
  });
  expect(gen.status, await gen.clone().text()).toBe(200);
  const { sessionId } = (await gen.json()) as { sessionId: string };
  const ex = await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null);
  expect(ex.status).toBe(200);
  return (await ex.json()) as { token: string; exportFormats: string[] };
}
const query = (token: string | undefined, body: Record<string, unknown>) => t.api("POST", `/api/v1/deployments/${deploymentId}/query`, body, token);
const authorize = (token: string | undefined, format: string, target = "widget") => t.api("POST", "/api/v1/embed/exports", { format, target }, token);

beforeAll(async () => {
  t = await createTestPlatform();
  dir = await mkdtemp(path.join(os.tmpdir(), "svc-export-grants-"));
  const seeded = await seedDemo({ db: t.database.db, dataDir: dir, rows: 600, adminUserId: t.adminUserId, demoHostOrigin: null, logger: silentLogger });
  deploymentId = seeded!.deploymentId;
  publicId = seeded!.dashboardPublicId;
  const restricted = await seedPublishedDashboard(t.database.db, { deploymentId, publicId: restrictedPublicId, title: "No downloads" });
  await t.database.db.update(dashboards).set({ restrictDataDownload: true }).where(eq(dashboards.publicId, restrictedPublicId));
  await t.api("PUT", `/api/v1/deployments/${deploymentId}/workbooks/${restricted.workbookId}/embed-access`, {
    rules: [{ embedTenantName: null, action: "read" }],
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the session setting", () => {
  it("covers the formats of the protocol's download event, no more, no fewer", () => {
    expect([...EXPORT_FORMATS]).toEqual([...DOWNLOAD_FORMATS]);
  });

  it.each([
    ["not set: every format (the URL alone decides, as before)", undefined, ["csv", "xlsx", "png", "pdf"]],
    ["true: every format", true, ["csv", "xlsx", "png", "pdf"]],
    ["false: none", false, []],
    ["an empty list: none", [], []],
    ["a list, in the product's order", ["pdf", "csv"], ["csv", "pdf"]],
  ])("%s — the token exchange lists the granted formats", async (_, allowExport, expected) => {
    expect((await exchanged(allowExport)).exportFormats).toEqual(expected);
  });

  it.each([
    ["an unknown format", ["csv", "docx"], ["settings", "allowExport"]],
    ["a format twice", ["csv", "csv"], ["settings", "allowExport"]],
    ["the string true", "true", ["settings", "allowExport"]],
  ])("refuses %s with 400 naming the field, and creates no session", async (_, allowExport, field) => {
    const res = await t.api("POST", "/api/v1/embed/generate-session", { deploymentId, externalId: "ann", settings: { allowExport } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; details: { path: (string | number)[] }[] };
    expect(body.code).toBe("validation_failed");
    expect(body.details.some((d) => d.path.slice(0, 2).join(".") === field.join("."))).toBe(true);
  });

  it("the embed dashboard tells the viewer its formats; a dashboard that restricts data download gives none", async () => {
    const { token } = await session(["csv"]);
    const demo = await t.api("GET", `/api/v1/embed/dashboard/${publicId}`, undefined, token);
    expect(demo.status).toBe(200);
    expect(((await demo.json()) as { viewer: { exportFormats: string[] } }).viewer.exportFormats).toEqual(["csv"]);
    const restricted = await t.api("GET", `/api/v1/embed/dashboard/${restrictedPublicId}`, undefined, token);
    expect(restricted.status).toBe(200);
    expect(((await restricted.json()) as { viewer: { exportFormats: string[] } }).viewer.exportFormats).toEqual([]);
  });
});

describe("the embed dashboard's viewer", () => {
  it("tells the session's settings by the schema's keys, and answers what its OpenAPI schema says", async () => {
    const { token } = await embedSession(t, deploymentId, {
      externalId: "ann",
      embedTenantName: "acme-corp",
      settings: { allowExport: ["csv"], locale: "de-DE", allowAi: false },
    });
    const res = await t.api("GET", `/api/v1/embed/dashboard/${publicId}`, undefined, token);
    expect(res.status).toBe(200);
    const body = EmbedDashboardResponse.parse(await res.json());
    expect(body.viewer.settings).toEqual({ allowExport: ["csv"], locale: "de-DE", allowAi: false });
    expect(body.viewer).toMatchObject({ mode: "signed", deploymentId, embedTenant: "acme-corp", exportFormats: ["csv"] });
  });
});

describe("rows for CSV and XLSX (widget and drill-down exports: POST …/query with export.format)", () => {
  it("a granted format answers the rows", async () => {
    const { token } = await session(["csv"]);
    const res = await query(token, { query: { ...byCategory, limit: 50_000 }, export: { format: "csv" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Record<string, unknown>[] };
    expect(body.data.length).toBeGreaterThan(1);
    expect(body.data[0]).toHaveProperty("sales.revenue");
  });

  it("a format the session does not grant is a 403 export_format_not_allowed, and the query does not run", async () => {
    const { token } = await session(["csv"]);
    // A query no test ran before: were it run for the refused request, the next answer would come from the cache.
    const fresh = { measures: ["sales.revenue"], dimensions: ["sales.customers_country"], order: [["sales.customers_country", "asc"]], limit: 4321 };
    const refused = await query(token, { query: fresh, export: { format: "xlsx" } });
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { code: string; message: string; details: { format: string; allowed: string[] }; data?: unknown };
    expect(body.code).toBe("export_format_not_allowed");
    expect(body.message).toBe("This embed session may not export XLSX; it may export CSV");
    expect(body.details).toEqual({ format: "xlsx", allowed: ["csv"] });
    expect(body.data).toBeUndefined();
    const first = (await (await query(token, { query: fresh })).json()) as { fromCache: boolean };
    expect(first.fromCache).toBe(false);
    const second = (await (await query(token, { query: fresh })).json()) as { fromCache: boolean };
    expect(second.fromCache).toBe(true);
  });

  it("a session granting no export refuses both row formats; a session without the setting allows them", async () => {
    const none = (await session(false)).token;
    for (const format of ["csv", "xlsx"]) {
      const res = await query(none, { query: byCategory, export: { format } });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(`This embed session may not export ${format.toUpperCase()}; it may not export at all`);
    }
    const legacy = (await session()).token;
    expect((await query(legacy, { query: byCategory, export: { format: "xlsx" } })).status).toBe(200);
  });

  it("a picture format is no row export: 400", async () => {
    const { token } = await session(true);
    const res = await query(token, { query: byCategory, export: { format: "png" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("validation_failed");
  });

  it("inside a batch, the refused export answers 403 on its line and the others run", async () => {
    const { token } = await session(["csv"]);
    const res = await t.api(
      "POST",
      `/api/v1/deployments/${deploymentId}/query/batch`,
      { queries: [{ query: byCategory, export: { format: "xlsx" } }, { query: byCategory, export: { format: "csv" } }, { query: byCategory }] },
      token,
    );
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { index: number; status: number; body: { code?: string; data?: unknown[] } })
      .sort((a, b) => a.index - b.index);
    expect(lines.map((l) => l.status)).toEqual([403, 200, 200]);
    expect(lines[0]!.body.code).toBe("export_format_not_allowed");
    expect(lines[0]!.body.data).toBeUndefined();
    expect(lines[1]!.body.data!.length).toBeGreaterThan(1);
  });

  it("platform users (API key) export every format", async () => {
    const res = await query(undefined, { query: byCategory, export: { format: "xlsx" } });
    expect(res.status).toBe(200);
  });
});

describe("pictures (PNG, PDF: POST /api/v1/embed/exports before drawing)", () => {
  it("answers 200 with the granted formats for a granted one, 403 for the others", async () => {
    const { token } = await session(["csv", "png"]);
    const ok = await authorize(token, "png", "widget");
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ format: "png", exportFormats: ["csv", "png"] });
    const refused = await authorize(token, "pdf", "dashboard");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      code: "export_format_not_allowed",
      message: "This embed session may not export PDF; it may export CSV, PNG",
      details: { format: "pdf", allowed: ["csv", "png"] },
    });
  });

  it("a session granting every format, and platform users, may draw both; an unknown format is a 400", async () => {
    const { token } = await session(true);
    for (const format of ["png", "pdf"]) {
      expect((await authorize(token, format, "dashboard")).status).toBe(200);
      expect((await authorize(undefined, format, "dashboard")).status).toBe(200);
    }
    expect((await authorize(token, "docx")).status).toBe(400);
    expect((await authorize(token, "png", "report")).status).toBe(400);
  });

  it("without credentials: 401", async () => {
    expect((await t.api("POST", "/api/v1/embed/exports", { format: "png", target: "widget" }, null)).status).toBe(401);
  });
});
