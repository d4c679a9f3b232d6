import { mkdtemp, readFile, rm, stat, writeFile, mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../server/demo/seed";
import { DEMO_WORKBOOK_SLUG } from "../server/demo/demo-workbook";
import { silentLogger } from "../server/logger";
import { createTestPlatform, storageKinds, type TestPlatform } from "../server/testing/test-platform";
import { runCli } from "./main";

const BASE = "http://svc.test";

describe.each(storageKinds)("svc CLI (%s)", (storage) => {
  let t: TestPlatform;
  let dir: string;
  let deploymentId: number;
  const calls: string[] = [];
  // The in-process server itself; only the network hop is replaced.
  const appFetch = async (request: Request) => (calls.push(`${request.method} ${new URL(request.url).pathname}`), t.app.fetch(request));

  async function svc(args: string[], env: Record<string, string> = {}, fetch = appFetch) {
    let stdout = "";
    let stderr = "";
    const code = await runCli(args, {
      stdout: (s) => void (stdout += s),
      stderr: (s) => void (stderr += s),
      env: { XDG_CONFIG_HOME: path.join(dir, "config"), HOME: dir, ...env },
      fetch: (r) => fetch(r),
    });
    return { code, stdout, stderr };
  }
  const loggedIn = () => ({ SVC_BASE_URL: BASE, SVC_API_KEY: t.adminToken });

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    dir = await mkdtemp(path.join(os.tmpdir(), "svc-cli-"));
    const seeded = await seedDemo({
      db: t.database.db,
      dataDir: path.join(dir, "data"),
      rows: 300,
      adminUserId: t.adminUserId,
      demoHostOrigin: null,
      logger: silentLogger,
    });
    deploymentId = seeded!.deploymentId;
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("logs in, storing base URL and key readable by the user only", async () => {
    const r = await svc(["login", "--base-url", BASE + "/some/path", "--api-key", t.adminToken]);
    expect(r.code).toBe(0);
    const file = path.join(dir, "config", "svc", "config.json");
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ baseUrl: BASE, apiKey: t.adminToken });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const list = await svc(["api-keys", "list", "--json"]);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).length).toBeGreaterThan(0);
  });

  it("refuses a login whose key is rejected, and stores nothing", async () => {
    const other = await mkdtemp(path.join(os.tmpdir(), "svc-cli-"));
    const r = await svc(["login", "--base-url", BASE, "--api-key", "svc_expired-or-unknown"], { XDG_CONFIG_HOME: other });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/API key was refused \(401/);
    await expect(stat(path.join(other, "svc", "config.json"))).rejects.toThrow();
  });

  it("says when the base URL is unreachable or not an svc platform", async () => {
    const down = await svc(["api-keys", "list"], { SVC_BASE_URL: "http://nowhere.invalid", SVC_API_KEY: "svc_x" }, async () => {
      throw new TypeError("fetch failed", { cause: { code: "ENOTFOUND" } });
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain("cannot reach http://nowhere.invalid (ENOTFOUND)");
    const other = await svc(
      ["api-keys", "list"],
      loggedIn(),
      async () => new Response("<html>nginx</html>", { status: 404, headers: { "content-type": "text/html" } }),
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("without an svc error body");
  });

  it("creates, lists and revokes API keys", async () => {
    const created = await svc(["api-keys", "create", "ci", "--json"], loggedIn());
    expect(created.code).toBe(0);
    const { key, token } = JSON.parse(created.stdout);
    expect(token).toMatch(/^svc_/);
    expect((await svc(["api-keys", "revoke", String(key.id)], loggedIn())).code).toBe(0);
    const list = await svc(["api-keys", "list"], loggedIn());
    expect(list.stdout).toMatch(new RegExp(`${key.id}\\s+\\S+\\s+revoked\\s+ci`));
    const refused = await svc(["api-keys", "list"], { SVC_BASE_URL: BASE, SVC_API_KEY: token });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("run svc login");
  });

  it("mints an embed session", async () => {
    const r = await svc(
      ["embed", "session", "--deployment", String(deploymentId), "--external-id", "Viewer-1", "--tenant", "acme-corp", "--dashboard", "abcdefABCDEF", "--json"],
      loggedIn(),
    );
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.sessionId.length).toBeGreaterThanOrEqual(16);
    expect(body.url).toBe(`${BASE}/embed/dashboard/abcdefABCDEF?session=${encodeURIComponent(body.sessionId)}`);
    const bad = await svc(["embed", "session", "--deployment", String(deploymentId), "--external-id", "v", "--attribute", "region=EU"], loggedIn());
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("userAttributes.0.name: 'region' is not a defined user attribute");
  });

  it("exports the demo workbook and applies it back unchanged", async () => {
    const file = path.join(dir, "demo.yml");
    const exported = await svc(["workbooks", "export", DEMO_WORKBOOK_SLUG, "--deployment", String(deploymentId), "-o", file], loggedIn());
    expect(exported.code, exported.stderr).toBe(0);
    const doc = YAML.parse(await readFile(file, "utf8"));
    expect(doc.reports).toHaveLength(11);
    expect(JSON.stringify(doc.dashboard)).toContain("reportPublicId");
    expect(JSON.stringify(doc.dashboard)).not.toContain('"reportId"');

    calls.length = 0;
    const applied = await svc(["workbooks", "apply", file, "--json"], loggedIn());
    expect(applied.code, applied.stderr).toBe(0);
    const result = JSON.parse(applied.stdout);
    const statuses = result.files[0].items.map((i: { status: string }) => i.status);
    expect(new Set(statuses)).toEqual(new Set(["unchanged"]));
    expect(statuses).toHaveLength(13); // 11 reports, the workbook, the publish
    expect(calls.filter((c) => c.startsWith("PUT"))).toEqual([]);
  });

  it("creates, then updates, then leaves alone a workbook from a file, and shows a dry-run diff", async () => {
    const wbFile = path.join(dir, "sales.yml");
    const doc = {
      deploymentId,
      slug: "team-sales",
      name: "Team sales",
      reports: [{ publicId: "teamRev00001", name: "team_revenue", title: "Revenue", kind: "kpi", query: { measures: ["sales.revenue"] } }],
      dashboard: { title: "Team", widgets: [{ id: "rev", type: "CHART", position: { x: 0, y: 0, w: 4, h: 3 }, config: { reportPublicId: "teamRev00001" } }] },
      publish: true,
    };
    await writeFile(wbFile, YAML.stringify(doc));
    const first = await svc(["workbooks", "apply", wbFile], loggedIn());
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/created\s+report teamRev00001/);
    expect(first.stdout).toMatch(/created\s+workbook team-sales/);
    expect(first.stdout).toMatch(/published\s+publish team-sales v1/);

    doc.reports[0]!.title = "Revenue (net)";
    await writeFile(wbFile, YAML.stringify(doc));
    calls.length = 0;
    const dry = await svc(["workbooks", "apply", wbFile, "--dry-run"], loggedIn());
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/would be updated\s+report teamRev00001/);
    expect(dry.stdout).toContain('title: "Revenue" -> "Revenue (net)"');
    expect(calls.every((c) => c.startsWith("GET"))).toBe(true);

    const second = await svc(["workbooks", "apply", wbFile], loggedIn());
    expect(second.stdout).toMatch(/updated\s+report teamRev00001/);
    expect(second.stdout).toMatch(/unchanged\s+workbook team-sales/);
    expect(second.stdout).toMatch(/published\s+publish team-sales v2/);

    const third = await svc(["workbooks", "apply", wbFile], loggedIn());
    expect(third.stdout).toContain("0 created, 0 updated, 3 unchanged, 0 published");
  });

  it("lists every invalid file with path and reason before sending anything", async () => {
    const bad = path.join(dir, "bad");
    await mkdir(bad, { recursive: true });
    await writeFile(path.join(bad, "a.yml"), YAML.stringify({ slug: "Bad Slug!", name: "x", reports: [{ publicId: "short", name: "r" }] }));
    await writeFile(path.join(bad, "b.json"), "{ not json");
    calls.length = 0;
    const r = await svc(["workbooks", "apply", bad], loggedIn());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path.join(bad, "a.yml")}: slug: slug must be`);
    expect(r.stderr).toContain(`${path.join(bad, "a.yml")}: reports.0.publicId: must be 12 characters`);
    expect(r.stderr).toContain(`${path.join(bad, "b.json")}: cannot be read`);
    expect(r.stderr).toContain("nothing was sent");
    expect(calls).toEqual([]);
  });

  it("refuses a dashboard naming a report that does not exist, writing nothing", async () => {
    const file = path.join(dir, "missing.yml");
    await writeFile(
      file,
      YAML.stringify({
        deploymentId,
        slug: "missing-report",
        name: "Missing",
        dashboard: { widgets: [{ id: "w", type: "CHART", position: { x: 0, y: 0, w: 1, h: 1 }, config: { reportPublicId: "nOSuchRep000" } }] },
      }),
    );
    calls.length = 0;
    const r = await svc(["workbooks", "apply", file], loggedIn());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("dashboard.widgets.0.config.reportPublicId: report nOSuchRep000 does not exist");
    expect(calls.filter((c) => !c.startsWith("GET"))).toEqual([]);
  });

  it("reports which items landed when the network drops mid-apply", async () => {
    const file = path.join(dir, "drop.yml");
    await writeFile(
      file,
      YAML.stringify({
        deploymentId,
        slug: "drop-test",
        name: "Drop",
        reports: [
          { publicId: "dropRep00001", name: "one", kind: "table", query: { measures: ["sales.count"] } },
          { publicId: "dropRep00002", name: "two", kind: "table", query: { measures: ["sales.units"] } },
        ],
      }),
    );
    let puts = 0;
    const flaky = async (request: Request) => {
      if (request.method === "PUT" && ++puts === 2) throw new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
      return t.app.fetch(request);
    };
    const r = await svc(["workbooks", "apply", file], loggedIn(), flaky);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/created\s+report dropRep00001/);
    expect(r.stdout).toMatch(/failed\s+report dropRep00002: cannot reach .*ECONNRESET/);
    expect(r.stdout).toMatch(/skipped\s+workbook drop-test/);
    expect(r.stderr).toContain("landed before the failure: report dropRep00001");
  });
});
