/**
 * Clients other people generate from our OpenAPI document accept what the API really answers.
 * In a throwaway project: openapi-typescript and @hey-api/openapi-ts each generate types from
 * the live document (GET /api/v1/openapi.json of an in-process platform); a .ts file assigns
 * payloads recorded from that same platform (a workbook with and without dashboards, an embed
 * viewer without a theme, a widget with a null responsive layout) to the generated types; and
 * `tsc --noEmit` must accept it.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDeployment } from "../src/server/testing/embed-access-fixtures";
import { createTestPlatform, type TestPlatform } from "../src/server/testing/test-platform";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const bin = (...p: string[]) => path.join(ROOT, "node_modules", ...p);
const OPENAPI_TYPESCRIPT = bin("openapi-typescript", "bin", "cli.js");
const HEY_API = bin("@hey-api", "openapi-ts", "bin", "run.js");
const TSC = bin("typescript", "bin", "tsc");

async function cli(script: string, args: string[], cwd: string): Promise<void> {
  try {
    await run(process.execPath, [script, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${path.basename(script)} ${args.join(" ")} failed:\n${e.stdout ?? ""}${e.stderr ?? ""}${e.message}`);
  }
}

/** Payloads recorded from the in-process API, by the generated type they must fit. */
async function recordPayloads(t: TestPlatform): Promise<{ type: string; name: string; value: unknown }[]> {
  const deploymentId = await seedDeployment(t.database.db, "contract");
  const base = `/api/v1/deployments/${deploymentId}/workbooks`;
  const json = async (res: Response | Promise<Response>, status = 200) => {
    const r = await res;
    expect(r.status, await r.clone().text()).toBe(status);
    return (await r.json()) as Record<string, unknown>;
  };

  const bare = await json(t.api("POST", base, { name: "No dashboards" }), 201);
  const widget = {
    id: "w1",
    type: "CHART",
    position: { x: 0, y: 0, w: 6, h: 4 },
    responsiveLayouts: { lg: null, md: { x: 0, y: 0, w: 4, h: 4 }, sm: null },
  };
  const created = await json(t.api("POST", base, { name: "With dashboards", meta: { dashboardDraft: { title: "Sales", widgets: [widget] } } }), 201);
  await json(t.api("POST", `${base}/${created.id}/dashboard/publish`));
  const withDashboards = await json(t.api("GET", `${base}/${created.id}`));
  const published = withDashboards.publishedDashboard as { publicId: string };
  expect(published.publicId).toBeTruthy();
  const draft = withDashboards.dashboardDraft as { widgets: Record<string, unknown>[] };
  expect(draft.widgets[0]!.responsiveLayouts).toMatchObject({ lg: null });

  await json(t.api("PATCH", `/api/v1/embed/dashboard/${published.publicId}`, { allowEmbed: true }));
  await json(t.api("PUT", `${base}/${created.id}/embed-access`, { rules: [{ embedTenantName: null, action: "read" }] }));
  const { sessionId } = await json(t.api("POST", "/api/v1/embed/generate-session", { deploymentId, externalId: "viewer-1", embedTenantName: "acme-corp" }));
  const { token } = await json(t.api("POST", "/api/v1/embed/session/token", { sessionId }, null));
  const embed = await json(t.api("GET", `/api/v1/embed/dashboard/${published.publicId}`, undefined, token as string));
  expect((embed.viewer as { embedTheme: unknown }).embedTheme).toBeNull();

  return [
    { type: "Workbook", name: "workbookWithoutDashboards", value: bare },
    { type: "Workbook", name: "workbookWithDashboards", value: withDashboards },
    { type: "EmbedDashboardResponse", name: "embedDashboard", value: embed },
    { type: "EmbedViewer", name: "embedViewerWithoutTheme", value: embed.viewer },
    { type: "DashboardWidget", name: "widgetWithNullLayout", value: draft.widgets[0] },
  ];
}

describe("clients generated from the OpenAPI document by third-party generators", () => {
  let t: TestPlatform;
  let dir: string;
  beforeAll(async () => {
    t = await createTestPlatform();
    dir = await mkdtemp(path.join(os.tmpdir(), "svc-contract-clients-"));
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("type-check real payloads with openapi-typescript's and @hey-api/openapi-ts's types", async () => {
    const doc = await (await t.app.request("http://localhost/api/v1/openapi.json")).json();
    await writeFile(path.join(dir, "openapi.json"), JSON.stringify(doc));
    const payloads = await recordPayloads(t);

    await cli(OPENAPI_TYPESCRIPT, ["openapi.json", "-o", "openapi-typescript/schema.ts"], dir);
    await cli(HEY_API, ["-i", "openapi.json", "-o", "hey-api", "-p", "@hey-api/typescript", "-s", "--no-log-file"], dir);

    const types = [...new Set(payloads.map((p) => p.type))];
    const lines = [
      `import type { components } from "./openapi-typescript/schema";`,
      `import type { ${types.join(", ")} } from "./hey-api/types.gen";`,
      ``,
      ...payloads.flatMap((p) => [
        `export const ${p.name}: components["schemas"]["${p.type}"] = ${JSON.stringify(p.value)};`,
        `export const ${p.name}HeyApi: ${p.type} = ${p.name};`,
        `export const ${p.name}HeyApiLiteral: ${p.type} = ${JSON.stringify(p.value)};`,
      ]),
    ];
    await writeFile(path.join(dir, "payloads.ts"), lines.join("\n") + "\n");
    await writeFile(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", skipLibCheck: true, types: [] },
        files: ["payloads.ts"],
      }),
    );
    const checked = await run(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: dir }).then(
      () => "",
      (err: { stdout?: string; message: string }) => err.stdout || err.message,
    );
    expect(checked, "tsc --noEmit on the generated clients and recorded payloads").toBe("");
  }, 240_000);
});
