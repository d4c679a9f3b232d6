import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../logger";
import { seedDemo } from "../../demo/seed";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";
import { PythonSandbox } from "./python-sandbox";
import { warmPythonFor } from "./service";

const ORDERS_BY_STATUS = { measures: ["sales.count"], dimensions: ["sales.status"], order: { "sales.status": "asc" } };

// On PGlite only: what runs here is the sandbox, the same on either storage, and each run starts
// an interpreter (seconds); the report's query with the viewer's security context is tested on
// both storages by the query and embed-access tests.
describe.each(["pglite"] as const)("python-run (%s)", (storage) => {
  let t: TestPlatform;
  let dir: string;
  let deploymentId: number;
  let publicId: string;
  let otherPublicId: string;
  let sandbox: PythonSandbox;
  const reportIds: Record<string, number> = {};

  async function report(key: string, python: string | null, query: Record<string, unknown> | null, workbookId: number) {
    const res = await t.api("PUT", `/api/v1/deployments/${deploymentId}/reports/by-public-id/py${key.padEnd(10, "0").slice(0, 10)}`, {
      name: key,
      kind: "html",
      query,
      meta: python === null ? {} : { python },
      workbookId,
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    reportIds[key] = (await res.json()).id;
  }

  async function appWorkbook(slug: string) {
    const res = await t.api("PUT", `/api/v1/deployments/${deploymentId}/workbooks/by-slug/${slug}`, {
      name: slug,
      meta: { dashboardDraft: { kind: "APP", title: slug, app: { html: "<p>app</p>" } } },
    });
    return (await res.json()).id as number;
  }

  async function publish(workbookId: number) {
    const res = await t.api("POST", `/api/v1/deployments/${deploymentId}/workbooks/${workbookId}/dashboard/publish`);
    expect(res.status, await res.clone().text()).toBe(200);
    const dash = await res.json();
    expect((await t.api("PATCH", `/api/v1/embed/dashboard/${dash.publicId}`, { allowEmbed: true })).status).toBe(200);
    expect(
      (await t.api("PUT", `/api/v1/deployments/${deploymentId}/workbooks/${workbookId}/embed-access`, { rules: [{ embedTenantName: null, action: "read" }] }))
        .status,
    ).toBe(200);
    return dash.publicId as string;
  }

  async function embedToken(tenant: string) {
    const gen = await t.api("POST", "/api/v1/embed/generate-session", { deploymentId, externalId: `viewer-${tenant}`, embedTenantName: tenant });
    const { sessionId } = await gen.json();
    return (await (await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null)).json()).token as string;
  }

  const run = (body: unknown, token?: string | null, id = publicId) => t.api("POST", `/api/v1/embed/dashboard/${id}/python-run`, body, token);

  beforeAll(async () => {
    // Short limits keep the loop and allocation cases quick; the defaults are larger.
    sandbox = new PythonSandbox({ timeoutMs: 3000, memoryLimitBytes: 96 * 1024 * 1024 });
    const { setPythonSandboxForTests } = await import("./python-sandbox");
    setPythonSandboxForTests(sandbox);
    t = await createTestPlatform({ storage });
    dir = mkdtempSync(path.join(tmpdir(), "svc-py-"));
    const seeded = await seedDemo({ db: t.database.db, dataDir: dir, rows: 2000, adminUserId: t.adminUserId, demoHostOrigin: null, logger: silentLogger });
    deploymentId = seeded!.deploymentId;
    const wb = await appWorkbook("python-app");
    await report(
      "summary",
      "total = sum(r['sales.count'] for r in rows)\nprint('orders', total)\nreport.table([{'status': r['sales.status'], 'n': r['sales.count']} for r in rows])\nreport.html('<b>' + str(total) + '</b>')",
      ORDERS_BY_STATUS,
      wb,
    );
    await report("loop", "while True:\n    pass", null, wb);
    await report("alloc", "chunks = []\nwhile True:\n    chunks.append(bytearray(8 * 1024 * 1024))", null, wb);
    await report("socket", "import socket\ns = socket.create_connection(('127.0.0.1', 5432))", null, wb);
    await report("os", "import os\nos.system('touch /tmp/pwned')", null, wb);
    await report("files", "print(open(" + JSON.stringify(path.resolve("package.json")) + ").read())", null, wb);
    await report("js", "import js\nprint(js.process.env)", null, wb);
    await report("image", "report.image('<svg xmlns=\"http://www.w3.org/2000/svg\"/>')", null, wb);
    await report("plain", null, ORDERS_BY_STATUS, wb);
    publicId = await publish(wb);
    const otherWb = await appWorkbook("other-app");
    await report("foreign", "print('foreign')", null, otherWb);
    otherPublicId = await publish(otherWb);
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts loading an interpreter when a dashboard with Python reports is opened, before any run", async () => {
    expect(sandbox.processCount).toBe(0);
    const res = await t.api("GET", `/api/v1/embed/dashboard/${otherPublicId}`);
    expect(res.status, await res.clone().text()).toBe(200);
    // Within the time the wall takes to verify (seconds on a loaded machine), not the interpreter load.
    await expect.poll(() => sandbox.processCount, { timeout: 60_000 }).toBe(1);
  }, 90_000);

  it("runs the report's Python over its query result and returns stdout, table and html", async () => {
    const res = await run({ reportId: reportIds.summary });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    expect(body.stdout).toMatch(/^orders \d+\n$/);
    expect(body.table.length).toBeGreaterThan(1);
    expect(body.table[0]).toEqual({ status: expect.any(String), n: expect.any(Number) });
    expect(body.html).toBe(`<b>${body.stdout.trim().split(" ")[1]}</b>`);
    const image = await (await run({ reportId: reportIds.image })).json();
    expect(image.image).toMatch(/^data:image\/svg\+xml;base64,/);
  }, 240_000);

  it("applies the dashboard filters and the viewer's row-level security", async () => {
    const all = await (await run({ reportId: reportIds.summary })).json();
    const completed = await (await run({ reportId: reportIds.summary, filters: ['f_sales.status={"value":"completed"}'] })).json();
    expect(completed.table).toHaveLength(1);
    expect(completed.table[0].status).toBe("completed");
    const acme = await (await run({ reportId: reportIds.summary }, await embedToken("acme-corp"))).json();
    const globex = await (await run({ reportId: reportIds.summary }, await embedToken("globex-inc"))).json();
    const total = (b: { stdout: string }) => Number(b.stdout.trim().split(" ")[1]);
    expect(total(acme)).toBeGreaterThan(0);
    expect(total(globex)).toBeGreaterThan(0);
    expect(total(acme) + total(globex)).toBe(total(all));
    expect((await run({ reportId: reportIds.summary, filters: ["not a filter"] })).status).toBe(400);
  }, 240_000);

  it("refuses a report of another workbook, a report without Python and a viewer without access", async () => {
    expect((await run({ reportId: reportIds.foreign })).status).toBe(404);
    expect((await run({ reportId: reportIds.foreign }, undefined, otherPublicId)).status).toBe(200);
    expect((await run({ reportId: reportIds.plain })).status).toBe(400);
    expect((await run({ reportId: 999999 })).status).toBe(404);
    expect((await run({ reportId: reportIds.summary }, null)).status).toBe(401);
    // Embed access withdrawn: the embed viewer is refused as on the dashboard itself.
    const token = await embedToken("acme-corp");
    const wbId = (await (await t.api("GET", `/api/v1/embed/dashboard/${publicId}`)).json()).dashboard.workbookId;
    await t.api("PUT", `/api/v1/deployments/${deploymentId}/workbooks/${wbId}/embed-access`, { rules: [{ embedTenantName: null, action: "none" }] });
    expect((await run({ reportId: reportIds.summary }, token)).status).toBe(403);
    await t.api("PUT", `/api/v1/deployments/${deploymentId}/workbooks/${wbId}/embed-access`, { rules: [{ embedTenantName: null, action: "read" }] });
  }, 240_000);

  it("stops code that loops forever, and the server keeps serving", async () => {
    const res = await run({ reportId: reportIds.loop });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: "python_failed", details: { reason: "timeout" } });
    expect((await run({ reportId: reportIds.summary })).status).toBe(200);
  }, 240_000);

  it("stops code that allocates without bound", async () => {
    const res = await run({ reportId: reportIds.alloc });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.code).toBe("python_failed");
    expect(body.details.reason).toBe("memory");
    expect((await run({ reportId: reportIds.summary })).status).toBe(200);
  }, 240_000);

  it("refuses sockets, processes, the platform's files and the JavaScript bridge", async () => {
    for (const [key, pattern] of [
      ["socket", /ImportError: module 'socket' is not available/],
      ["os", /AttributeError: module 'os' has no attribute 'system'/],
      ["files", /FileNotFoundError/],
      ["js", /ImportError: module 'js' is not available/],
    ] as const) {
      const res = await run({ reportId: reportIds[key] });
      expect(res.status, key).toBe(422);
      const body = await res.json();
      expect(body.details.reason, key).toBe("error");
      expect(body.message, key).toMatch(pattern);
    }
  }, 240_000);

  it("answers 429 when one tenant floods the pool, and the other tenant still runs", async () => {
    const { setPythonSandboxForTests } = await import("./python-sandbox");
    setPythonSandboxForTests(new PythonSandbox({ timeoutMs: 3000, memoryLimitBytes: 96 * 1024 * 1024 }, { workers: 2, perTenant: 1, maxQueue: 4 }));
    try {
      const acme = await embedToken("acme-corp");
      // Filters that differ get past the answer cache, as an attacker's would.
      const flood = [0, 1, 2].map((i) => run({ reportId: reportIds.loop, filters: [`f_sales.status={"value":"x${i}"}`] }, acme));
      const globex = await run({ reportId: reportIds.summary, filters: ['f_sales.status={"value":"completed"}'] }, await embedToken("globex-inc"));
      const statuses = (await Promise.all(flood)).map((r) => r.status);
      // One runs into its time limit; what would wait beyond the tenant's share is refused.
      expect(statuses).toContain(422);
      expect(statuses).toContain(429);
      expect(statuses.every((s) => s === 422 || s === 429)).toBe(true);
      expect(globex.status).toBe(200);
    } finally {
      setPythonSandboxForTests(new PythonSandbox({ timeoutMs: 3000, memoryLimitBytes: 96 * 1024 * 1024 }));
    }
  }, 240_000);

  it("answers 503 python_unavailable where Python reports are off", async () => {
    const { setPythonSandboxForTests } = await import("./python-sandbox");
    setPythonSandboxForTests(new PythonSandbox(undefined, { reports: "off" }));
    try {
      const res = await run({ reportId: reportIds.summary, filters: ['f_sales.status={"value":"off"}'] });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: "python_unavailable", message: expect.stringMatching(/SVC_PYTHON_REPORTS=off/) });
    } finally {
      setPythonSandboxForTests(new PythonSandbox({ timeoutMs: 3000, memoryLimitBytes: 96 * 1024 * 1024 }));
    }
  });

  it("keeps nothing from one run for the next", async () => {
    const sandbox = new PythonSandbox({ timeoutMs: 5000, memoryLimitBytes: 64 * 1024 * 1024 });
    try {
      const code = "try:\n    print('seen', leftover)\nexcept NameError:\n    print('fresh')\nleftover = 1";
      const first = await sandbox.run({ code, rows: [], columns: [] });
      const second = await sandbox.run({ code, rows: [], columns: [] });
      expect(first).toEqual({ ok: true, output: { stdout: "fresh\n" } });
      expect(second).toEqual({ ok: true, output: { stdout: "fresh\n" } });
    } finally {
      await sandbox.close();
    }
  }, 240_000);
});

describe("warmPythonFor", () => {
  it("starts a process only for a dashboard that holds Python code", () => {
    let warmed = 0;
    const sandbox = { warm: async () => void (warmed += 1) };
    expect(warmPythonFor(sandbox, [{ meta: {} }, { meta: { python: "  " } }])).toBe(false);
    expect(warmed).toBe(0);
    expect(warmPythonFor(sandbox, [{ meta: {} }, { meta: { python: "print(1)" } }])).toBe(true);
    expect(warmed).toBe(1);
  });
});
