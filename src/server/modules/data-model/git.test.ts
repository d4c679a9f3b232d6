import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemoDataset } from "../../demo/dataset";
import { modelGitRemotes } from "../../db/schema";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

const ordersYml = (extra = "") =>
  `cubes:\n  - name: orders\n    sql_table: orders\n    dimensions:\n      - { name: status, sql: status, type: string }\n    measures:\n      - { name: count, type: count }\n${extra}`;
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8" });

/** A bare repository whose main branch holds model/orders.yml. */
function bareRepo(root: string, name: string) {
  const bare = path.join(root, `${name}.git`);
  const work = path.join(root, `${name}-work`);
  mkdirSync(bare);
  git(bare, "init", "-q", "--bare");
  mkdirSync(path.join(work, "model"), { recursive: true });
  git(work, "init", "-q");
  writeFileSync(path.join(work, "model", "orders.yml"), ordersYml());
  writeFileSync(path.join(work, "README.md"), "analytics repo\n");
  git(work, "add", "-A");
  git(work, "commit", "-q", "-m", "model");
  git(work, "push", "-q", bare, "HEAD:refs/heads/main");
  return { bare, work };
}

/** `git http-backend` behind HTTP basic auth (user `ci`, password `s3cret`), the smart HTTP protocol of any git host. */
function gitHttpServer(projectRoot: string) {
  return http.createServer((req, res) => {
    const expected = "Basic " + Buffer.from("ci:s3cret").toString("base64");
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(req.url!, "http://x");
    const cgi = spawn("/usr/lib/git-core/git-http-backend", [], {
      env: {
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: "1",
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method,
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        REMOTE_USER: "ci",
        REMOTE_ADDR: "127.0.0.1",
        PATH: process.env.PATH,
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on("data", (chunk: Buffer) => {
      if (headersDone) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString().split("\r\n")) {
        const i = line.indexOf(":");
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === "status") status = parseInt(v, 10);
        else res.setHeader(k, v);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    cgi.stdout.on("end", () => res.end());
  });
}

describe.each(storageKinds)("git remote of a data model (%s)", (storage) => {
  let t: TestPlatform;
  let dir: string;
  let duckdbPath: string;
  let dev: { id: number; token: string };
  let server: http.Server;
  let port: number;

  const newDeployment = async () => {
    const res = await t.api("POST", "/build/api/v1/deployments/", { name: "git", dataSource: { type: "duckdb", path: duckdbPath } });
    return (await res.json()).id as number;
  };
  const base = (id: number) => `/build/api/v1/deployments/${id}`;

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    dir = mkdtempSync(path.join(tmpdir(), "svc-git-test-"));
    duckdbPath = path.join(dir, "shop.duckdb");
    await generateDemoDataset({ path: duckdbPath, rows: 200 });
    dev = await t.addUser("dev@example.com", "developer");
    server = gitHttpServer(dir);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("imports a local repository, pushes merges to it, and pulls its new commits", async () => {
    const { bare, work } = bareRepo(dir, `local-${storage}`);
    const id = await newDeployment();
    // A developer may not read the server's disk.
    expect((await t.api("POST", `${base(id)}/git/connect`, { url: bare, branch: "main" }, dev.token)).status).toBe(403);
    const connected = await t.api("POST", `${base(id)}/git/connect`, { url: bare, branch: "main" });
    expect(connected.status).toBe(200);
    expect(await connected.json()).toMatchObject({ url: bare, branch: "main", imported: true, hasCredentials: false });
    expect((await t.api("POST", `/api/v1/deployments/${id}/query`, { query: { measures: ["orders.count"] } })).status).toBe(200);

    // A merge to main is pushed under model/, with the author.
    const branch = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token)).json()).name;
    await t.api(
      "PUT",
      `${base(id)}/data-model/files`,
      { path: "orders.yml", content: ordersYml("      - { name: units, sql: quantity, type: sum }\n") },
      dev.token,
    );
    await t.api("POST", `${base(id)}/commit`, { message: "units" }, dev.token);
    const merged = await t.api("POST", `${base(id)}/merge-to-default`, { branch, removeBranchAfterMerge: false }, dev.token);
    expect(await merged.json()).toMatchObject({ pushed: true });
    git(work, "pull", "-q", bare, "main");
    expect(readFileSync(path.join(work, "model", "orders.yml"), "utf8")).toContain("name: units");
    expect(git(work, "log", "-1", "--format=%an")).toContain("dev@example.com");

    // A commit made on the remote reaches main and the dev branch through pull.
    writeFileSync(
      path.join(work, "model", "customers.yml"),
      "cubes:\n  - name: customers\n    sql_table: customers\n    measures:\n      - { name: count, type: count }\n",
    );
    git(work, "add", "-A");
    git(work, "commit", "-q", "-m", "customers");
    git(work, "push", "-q", bare, "HEAD:refs/heads/main");
    const pulled = await t.api("POST", `${base(id)}/pull`, {}, dev.token);
    expect(pulled.status).toBe(200);
    expect((await t.api("POST", `/api/v1/deployments/${id}/query`, { query: { measures: ["customers.count"] } })).status).toBe(200);
    const hashes = await (await t.api("GET", `${base(id)}/data-model/file-hashes?branch=${branch}`, undefined, dev.token)).json();
    expect(Object.keys(hashes).sort()).toEqual(["customers.yml", "orders.yml"]);

    // The remote moved again: a merge that would overwrite it is refused until pulled.
    writeFileSync(path.join(work, "model", "customers.yml"), readFileSync(path.join(work, "model", "customers.yml"), "utf8") + "# note\n");
    git(work, "commit", "-q", "-am", "note");
    git(work, "push", "-q", bare, "HEAD:refs/heads/main");
    await t.api("PUT", `${base(id)}/data-model/files`, { path: "orders.yml", content: ordersYml() }, dev.token);
    await t.api("POST", `${base(id)}/commit`, { message: "drop units" }, dev.token);
    const refused = await t.api("POST", `${base(id)}/merge-to-default`, { branch, removeBranchAfterMerge: false }, dev.token);
    expect(refused.status).toBe(409);
    expect((await t.api("POST", `${base(id)}/pull`, {}, dev.token)).status).toBe(200);
    expect((await t.api("POST", `${base(id)}/merge-to-default`, { branch }, dev.token)).status).toBe(200);
  });

  it("replays the platform's commits (message, author, time) on the remote, and writes model/x.yml once under model/", async () => {
    const { bare } = bareRepo(dir, `history-${storage}`);
    const id = await newDeployment();
    expect((await t.api("POST", `${base(id)}/git/connect`, { url: bare, branch: "main" })).status).toBe(200);
    const log = () => git(dir, "--git-dir", bare, "log", "--format=%s|%an|%ae|%aI", "main").trim().split("\n");
    const dev2 = await t.addUser(`dev2-${storage}@example.com`, "developer");
    const branch = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token)).json()).name;
    const cube = (name: string) => `cubes:\n  - name: ${name}\n    sql_table: orders\n    measures:\n      - { name: count, type: count }\n`;
    await t.api("PUT", `${base(id)}/data-model/files`, { path: "model/a.yml", content: cube("a") }, dev.token);
    await t.api("POST", `${base(id)}/commit`, { message: "Add cube a" }, dev.token);
    await new Promise((r) => setTimeout(r, 1100));
    await t.api("PUT", `${base(id)}/data-model/files`, { path: "b.yml", content: cube("b") }, dev.token);
    await t.api("POST", `${base(id)}/commit`, { message: "Add cube b" }, dev.token);
    const ff = await t.api("POST", `${base(id)}/merge-to-default`, { branch, removeBranchAfterMerge: false }, dev.token);
    expect(await ff.json()).toMatchObject({ pushed: true, fastForward: true });
    const [b, a, imported] = log();
    expect(b).toMatch(/^Add cube b\|dev@example\.com\|dev@example\.com\|/);
    expect(a).toMatch(/^Add cube a\|dev@example\.com\|/);
    expect(imported).toMatch(/^model\|Test\|/);
    expect(Date.parse(b!.split("|")[3]!) - Date.parse(a!.split("|")[3]!)).toBeGreaterThanOrEqual(1000);
    const files = git(dir, "--git-dir", bare, "ls-tree", "-r", "--name-only", "main").trim().split("\n");
    expect(files.sort()).toEqual(["README.md", "model/a.yml", "model/b.yml", "model/orders.yml"]);

    // A merge that combines both sides: the branch's commits, then the merge commit.
    const branch2 = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev2.token)).json()).name;
    await t.api("PUT", `${base(id)}/data-model/files`, { path: "c.yml", content: cube("c") }, dev2.token);
    await t.api("POST", `${base(id)}/commit`, { message: "Add cube c" }, dev2.token);
    await t.api("PUT", `${base(id)}/data-model/files`, { path: "a.yml", content: cube("a") + "# from dev\n" }, dev.token);
    await t.api("POST", `${base(id)}/commit`, { message: "Note on a" }, dev.token);
    expect((await t.api("POST", `${base(id)}/merge-to-default`, { branch, removeBranchAfterMerge: false }, dev.token)).status).toBe(200);
    const merged = await t.api("POST", `${base(id)}/merge-to-default`, { branch: branch2 }, dev2.token);
    expect(await merged.json()).toMatchObject({ pushed: true, fastForward: false });
    expect(
      log()
        .slice(0, 2)
        .map((l) => l.split("|").slice(0, 2).join("|")),
    ).toEqual([`Add cube c|dev2-${storage}@example.com`, "Note on a|dev@example.com"]);
    expect(git(dir, "--git-dir", bare, "show", "main:model/a.yml")).toContain("# from dev");

    // An upload to main arrives as one commit with its message and uploader.
    const start = await (await t.api("POST", `${base(id)}/data-model/upload/start`, { branch: "main", mode: "merge" }, dev2.token)).json();
    const content = cube("d");
    await t.api(
      "POST",
      `${base(id)}/data-model/upload/file`,
      {
        uploadId: start.uploadId,
        path: "model/d.yml",
        content: Buffer.from(content).toString("base64"),
        sha256: createHash("sha256").update(content).digest("hex"),
      },
      dev2.token,
    );
    expect((await t.api("POST", `${base(id)}/data-model/upload/finish`, { uploadId: start.uploadId, message: "Upload cube d" }, dev2.token)).status).toBe(200);
    expect(log()[0]).toMatch(new RegExp(`^Upload cube d\\|dev2-${storage}@example\\.com\\|`));
    expect(git(dir, "--git-dir", bare, "ls-tree", "-r", "--name-only", "main")).not.toContain("model/model/");
  });

  it("connects over HTTP (git http-backend) with credentials sealed at rest and never returned", async () => {
    bareRepo(dir, `remote-${storage}`);
    const id = await newDeployment();
    const url = `http://127.0.0.1:${port}/remote-${storage}.git`;
    const wrong = await t.api("POST", `${base(id)}/git/connect`, { url, branch: "main", credentials: { username: "ci", password: "nope" } }, dev.token);
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(await wrong.json())).not.toContain("nope");
    const inUrl = await t.api("POST", `${base(id)}/git/connect`, { url: `http://ci:s3cret@127.0.0.1:${port}/x.git`, branch: "main" }, dev.token);
    expect(inUrl.status).toBe(400);
    const ok = await t.api("POST", `${base(id)}/git/connect`, { url, branch: "main", credentials: { username: "ci", password: "s3cret" } }, dev.token);
    const body = await ok.json();
    expect(ok.status).toBe(200);
    expect(body).toMatchObject({ imported: true, hasCredentials: true });
    expect(JSON.stringify(body)).not.toContain("s3cret");
    const [row] = await t.database.db.select().from(modelGitRemotes).where(eq(modelGitRemotes.deploymentId, id));
    expect(row!.credentialsEncrypted).toBeTruthy();
    expect(row!.credentialsEncrypted).not.toContain("s3cret");
    // Pushing over HTTP with the stored credentials.
    const branch = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token)).json()).name;
    await t.api(
      "PUT",
      `${base(id)}/data-model/files`,
      { path: "more.yml", content: "cubes:\n  - name: more\n    sql_table: orders\n    measures:\n      - { name: count, type: count }\n" },
      dev.token,
    );
    await t.api("POST", `${base(id)}/commit`, { message: "more" }, dev.token);
    expect(await (await t.api("POST", `${base(id)}/merge-to-default`, { branch }, dev.token)).json()).toMatchObject({ pushed: true });
    expect(git(dir, "--git-dir", path.join(dir, `remote-${storage}.git`), "ls-tree", "-r", "--name-only", "main")).toContain("model/more.yml");
  });

  it("syncs dbt models from the connected repository into cubes on a branch, as a background job", async () => {
    const { bare, work } = bareRepo(dir, `dbt-${storage}`);
    const manifest = {
      nodes: {
        "model.shop.stg_orders": {
          resource_type: "model",
          name: "stg_orders",
          relation_name: "orders",
          description: "Orders, one row each",
          columns: {
            status: { name: "status", data_type: "varchar", description: "Order status" },
            amount: { name: "amount", data_type: "numeric(10,2)" },
            created_at: { name: "created_at", data_type: "timestamp" },
          },
        },
        "model.shop.customers": { resource_type: "model", name: "Customers", relation_name: "customers", columns: {} },
        "test.shop.not_null": { resource_type: "test", name: "not_null_x", columns: {} },
      },
    };
    mkdirSync(path.join(work, "target"), { recursive: true });
    writeFileSync(path.join(work, "target", "manifest.json"), JSON.stringify(manifest));
    git(work, "add", "-A");
    git(work, "commit", "-q", "-m", "manifest");
    git(work, "push", "-q", bare, "HEAD:refs/heads/main");
    const id = await newDeployment();
    const started = await t.api("POST", `/api/v1/deployments/${id}/dbt-sync`, {}, dev.token);
    expect(started.status).toBe(202);
    const noRemote = await started.json();
    const waitJob = async (jobId: string) => {
      for (let i = 0; i < 100; i++) {
        const job = await (await t.api("GET", `/api/v1/deployments/${id}/dbt-sync/${jobId}`, undefined, dev.token)).json();
        if (job.status === "succeeded" || job.status === "failed") return job;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("job did not finish");
    };
    const failed = await waitJob(noRemote.syncJobId);
    expect(failed.status).toBe("failed");
    expect(failed.logs.at(-1).message).toMatch(/no dbt manifest/);

    await t.api("POST", `${base(id)}/git/connect`, { url: bare, branch: "main" });
    const res = await t.api("POST", `/api/v1/deployments/${id}/dbt-sync`, { branchName: "dbt" }, dev.token);
    const { branchName, syncJobId, workflowId } = await res.json();
    expect(branchName).toBe("dbt");
    expect(workflowId).toContain(syncJobId);
    const job = await waitJob(syncJobId);
    expect(job.status).toBe("succeeded");
    expect(job.logs.map((l: { message: string }) => l.message).join("\n")).toMatch(/2 dbt models/);
    const files = await (await t.api("GET", `${base(id)}/data-model/files?branch=dbt`, undefined, dev.token)).json();
    expect(files.files.map((f: { path: string }) => f.path)).toEqual(["dbt/customers.yml", "dbt/stg_orders.yml", "orders.yml"]);
    const cube = await (await t.api("GET", `${base(id)}/data-model/files?branch=dbt&path=dbt/stg_orders.yml`, undefined, dev.token)).json();
    expect(cube.files[0].content).toContain("description: Order status");
    expect(cube.files[0].content).toMatch(/name: amount\n\s+sql: amount\n\s+type: number/);
    const q = await t.api(
      "POST",
      `/api/v1/deployments/${id}/query?branch=dbt`,
      { query: { measures: ["stg_orders.count"], dimensions: ["stg_orders.status"] } },
      dev.token,
    );
    expect(q.status).toBe(200);
    const status = await (await t.api("GET", `/api/v1/deployments/${id}/build-status?branch=dbt`, undefined, dev.token)).json();
    expect(status).toMatchObject({ branch: "dbt", status: "ready", jobs: [expect.objectContaining({ id: syncJobId, kind: "dbt", status: "succeeded" })] });
  });
});
