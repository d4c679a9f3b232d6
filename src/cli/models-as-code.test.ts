import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, storageKinds, type TestPlatform } from "../server/testing/test-platform";
import { runCli } from "./main";

const BASE = "http://svc.test";
const cube = (name: string, extra = "") => `cubes:\n  - name: ${name}\n    sql_table: ${name}\n    measures:\n      - { name: count, type: count }\n${extra}`;

describe.each(storageKinds)("svc model (%s)", (storage) => {
  let t: TestPlatform;
  let dir: string;
  let deploymentId: number;
  let calls: string[] = [];
  const appFetch = async (request: Request) => (calls.push(`${request.method} ${new URL(request.url).pathname}`), t.app.fetch(request));

  async function svc(args: string[]) {
    let stdout = "";
    let stderr = "";
    const code = await runCli(args, {
      stdout: (s) => void (stdout += s),
      stderr: (s) => void (stderr += s),
      env: { XDG_CONFIG_HOME: path.join(dir, "config"), HOME: dir, SVC_BASE_URL: BASE, SVC_API_KEY: t.adminToken },
      fetch: appFetch,
    });
    return { code, stdout, stderr };
  }

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    dir = await mkdtemp(path.join(os.tmpdir(), "svc-model-cli-"));
    [deploymentId] = await t.addDeployments("models");
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("pushes a folder, then only the files whose hash changed, and pulls it back", async () => {
    const src = path.join(dir, "model");
    await mkdir(path.join(src, "cubes"), { recursive: true });
    for (let i = 0; i < 5; i++) await writeFile(path.join(src, "cubes", `c${i}.yml`), cube(`c${i}`));
    await writeFile(path.join(src, "README.md"), "not a model file");
    const d = String(deploymentId);
    expect((await svc(["model", "dev", "--deployment", d])).code).toBe(0);
    const branch = (await svc(["model", "dev", "--deployment", d])).stdout.trim();
    expect(branch).toMatch(/^dev-\d+-[0-9a-f]{8}$/);

    calls = [];
    const first = await svc(["model", "push", "--deployment", d, "--branch", branch, "--dir", src, "--json"]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ uploaded: expect.arrayContaining(["cubes/c0.yml"]), valid: true });
    expect(calls.filter((c) => c.endsWith("/upload/file")).length).toBe(5);

    await writeFile(path.join(src, "cubes", "c3.yml"), cube("c3", "    dimensions:\n      - { name: id, sql: id, type: number }\n"));
    await rm(path.join(src, "cubes", "c4.yml"));
    calls = [];
    const second = await svc(["model", "push", "--deployment", d, "--branch", branch, "--dir", src, "-m", "one change", "--json"]);
    expect(JSON.parse(second.stdout)).toMatchObject({ uploaded: ["cubes/c3.yml"], deleted: ["cubes/c4.yml"], unchanged: 3 });
    expect(calls.filter((c) => c.endsWith("/upload/file")).length).toBe(1);
    const again = await svc(["model", "push", "--deployment", d, "--branch", branch, "--dir", src]);
    expect(again.stdout).toMatch(/up to date/);

    const merged = await svc(["model", "merge", "--deployment", d, "--branch", branch]);
    expect(merged.stdout).toMatch(/^merged .* into main: commit \d+/);

    const out = path.join(dir, "pulled");
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, "stale.yml"), cube("stale"));
    const pulled = await svc(["model", "pull", "--deployment", d, "--branch", "main", "--dir", out]);
    expect(pulled.stdout).toMatch(/4 written, 1 removed/);
    expect(await readFile(path.join(out, "cubes", "c3.yml"), "utf8")).toContain("name: id");
    calls = [];
    expect((await svc(["model", "pull", "--deployment", d, "--branch", "main", "--dir", out])).stdout).toMatch(/0 written, 0 removed, 4 unchanged/);
    expect(calls.length).toBe(1);
  });

  it("pushes a repository root (files under model/) as the same files, never doubling the prefix", async () => {
    const repo = path.join(dir, "repo");
    await mkdir(path.join(repo, "model"), { recursive: true });
    await writeFile(path.join(repo, "model", "r1.yml"), cube("r1"));
    await writeFile(path.join(repo, "model", "r2.yml"), cube("r2"));
    const d = String(deploymentId);
    const branch = (await svc(["model", "dev", "--deployment", d])).stdout.trim();
    const first = await svc(["model", "push", "--deployment", d, "--branch", branch, "--dir", repo, "--json"]);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).uploaded.sort()).toEqual(["r1.yml", "r2.yml"]);
    // The second push sees the same hashes under the same names: nothing to upload, nothing deleted.
    const again = await svc(["model", "push", "--deployment", d, "--branch", branch, "--dir", repo, "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ uploaded: [], deleted: [] });
  });

  it("fails with the problems when the pushed model does not compile, and main refuses it", async () => {
    const src = path.join(dir, "bad");
    await mkdir(src, { recursive: true });
    await writeFile(path.join(src, "x.yml"), "cubes:\n  - name: x\n");
    const r = await svc(["model", "push", "--deployment", String(deploymentId), "--branch", "main", "--dir", src]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/x\.yml/);
  });
});
