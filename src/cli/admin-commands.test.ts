import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeLog } from "../server/modules/deployment-logs/service";
import { createTestPlatform, type TestPlatform } from "../server/testing/test-platform";
import { runCli } from "./main";

describe("svc users, settings and logs", () => {
  let t: TestPlatform;
  let dir: string;

  async function svc(args: string[]) {
    let stdout = "";
    let stderr = "";
    const code = await runCli(args, {
      stdout: (s) => void (stdout += s),
      stderr: (s) => void (stderr += s),
      env: { XDG_CONFIG_HOME: path.join(dir, "config"), HOME: dir, SVC_BASE_URL: "http://svc.test", SVC_API_KEY: t.adminToken },
      // The in-process server itself; only the network hop is replaced.
      fetch: (r) => Promise.resolve(t.app.fetch(r)),
    });
    return { code, stdout, stderr };
  }

  beforeAll(async () => {
    t = await createTestPlatform();
    dir = await mkdtemp(path.join(os.tmpdir(), "svc-cli-admin-"));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("creates, updates and bulk-changes users, exiting 1 when one fails", async () => {
    const created = await svc(["users", "create", "cli@example.com", "--role", "developer", "--json"]);
    expect(created.code, created.stderr).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: number };
    const updated = await svc(["users", "update", String(id), "--status", "inactive"]);
    expect(updated.stdout).toMatch(new RegExp(`${id}\\s+inactive\\s+developer\\s+cli@example.com`));
    const bulk = await svc(["users", "bulk", "activate", String(id), String(t.adminUserId + 9999)]);
    expect(bulk.code).toBe(1);
    expect(bulk.stdout).toContain(`ok      ${id}`);
    expect(bulk.stdout).toContain("not_found");
    expect((await svc(["users", "bulk", "purge", String(id)])).code).toBe(2);
    expect((await svc(["users", "delete", String(id)])).code).toBe(0);
    expect((await t.api("GET", `/api/v1/users/${id}`)).status).toBe(404);
  });

  it("sets settings from a file and reads them back without secrets", async () => {
    const file = path.join(dir, "settings.json");
    await writeFile(file, JSON.stringify({ defaultTimeZone: "Asia/Tokyo", ai: { agentsConfigCredentials: { openai: "sk-cli-secret" } } }));
    const set = await svc(["settings", "set", file]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).not.toContain("sk-cli-secret");
    const got = JSON.parse((await svc(["settings", "get"])).stdout);
    expect(got).toMatchObject({ defaultTimeZone: "Asia/Tokyo", ai: { agentsConfigCredentials: { configured: true, names: ["openai"] } } });
    await writeFile(file, JSON.stringify({ defaultTimeZone: "Nowhere/City" }));
    const bad = await svc(["settings", "set", file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("defaultTimeZone");
  });

  it("lists notifications and runs one, failing when a recipient cannot get it", async () => {
    const { seedPublishedDashboard, seedDeployment } = await import("../server/testing/embed-access-fixtures");
    const dep = await seedDeployment(t.database.db, "cli-notify");
    const dash = await seedPublishedDashboard(t.database.db, { deploymentId: dep, publicId: "CliNotify001", title: "CLI" });
    const res = await t.api("POST", "/api/v1/notifications", {
      dashboardPublicId: dash.publicId,
      schedule: { cron: "0 7 * * 1", timezone: "Europe/Paris" },
      recipients: [{ email: "cli@example.org" }],
    });
    const { id } = (await res.json()) as { id: number };
    const list = await svc(["notifications", "list", "--dashboard", dash.publicId]);
    expect(list.stdout).toContain("0 7 * * 1 (Europe/Paris)");
    // No SMTP server is configured here: the run is recorded as failed, and the exit code says so.
    const run = await svc(["notifications", "run", String(id)]);
    expect(run.code).toBe(1);
  });

  it("prints a deployment's logs, filtered", async () => {
    const [dep] = await t.addDeployments("cli-logs");
    await writeLog(t.database.db, { deploymentId: dep!, container: "INIT", message: "build finished" });
    await writeLog(t.database.db, { deploymentId: dep!, container: "MAIN", message: "other line" });
    const res = await svc(["logs", String(dep), "--container", "INIT"]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain("build finished");
    expect(res.stdout).not.toContain("other line");
  });
});
