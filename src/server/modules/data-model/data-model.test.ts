import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemoDataset } from "../../demo/dataset";
import { dataModelFiles, modelCommits } from "../../db/schema";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { createApp } from "../../app";
import { silentLogger } from "../../logger";
import { createQueryEngineRegistry } from "../query/engines";
import { sha256Of } from "./merge";
import { casBranch, getBranch } from "./store";

const ordersYml = (extra = "") => `cubes:
  - name: orders
    sql_table: orders
    dimensions:
      - { name: status, sql: status, type: string }
    measures:
      - { name: count, type: count }
${extra}`;
const customersYml = `cubes:
  - name: customers
    sql_table: customers
    measures:
      - { name: count, type: count }
`;

describe.each(storageKinds)("data model as code (%s)", (storage) => {
  let t: TestPlatform;
  let dir: string;
  let duckdbPath: string;
  let dev: { id: number; token: string };
  let dev2: { id: number; token: string };
  let viewer: { id: number; token: string };

  const base = (id: number) => `/build/api/v1/deployments/${id}`;
  const newDeployment = async (files = [{ path: "orders.yml", content: ordersYml() }]) => {
    const res = await t.api("POST", "/build/api/v1/deployments/", { name: "shop", dataSource: { type: "duckdb", path: duckdbPath }, dataModelFiles: files });
    expect(res.status).toBe(201);
    return (await res.json()).id as number;
  };
  const query = (id: number, q: unknown, token?: string, branch?: string) =>
    t.api("POST", `/api/v1/deployments/${id}/query${branch ? `?branch=${encodeURIComponent(branch)}` : ""}`, { query: q }, token);

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    dir = mkdtempSync(path.join(tmpdir(), "svc-model-"));
    duckdbPath = path.join(dir, "shop.duckdb");
    await generateDemoDataset({ path: duckdbPath, rows: 300 });
    dev = await t.addUser("dev@example.com", "developer");
    dev2 = await t.addUser("dev2@example.com", "developer");
    viewer = await t.addUser("viewer@example.com", "viewer");
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("edits in dev mode, queries the branch, commits and merges to production", async () => {
    const id = await newDeployment();
    const enter = await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token);
    expect(enter.status).toBe(200);
    const branch = (await enter.json()).name as string;
    expect(branch).toMatch(new RegExp(`^dev-${dev.id}-[0-9a-f]{8}$`));

    // A valid change: a new measure, visible on the branch only.
    const put = await t.api(
      "PUT",
      `${base(id)}/data-model/files`,
      { path: "orders.yml", content: ordersYml("      - { name: units, sql: quantity, type: sum }\n") },
      dev.token,
    );
    expect(await put.json()).toMatchObject({ branch, valid: true, errors: [] });
    const onBranch = await query(id, { measures: ["orders.units"] }, dev.token);
    expect(onBranch.status).toBe(200);
    expect(Number((await onBranch.json()).data[0]["orders.units"])).toBeGreaterThan(0);
    expect((await query(id, { measures: ["orders.units"] }, t.adminToken)).status).toBe(400);

    // An invalid file is kept and named, with its line; queries on the branch answer 400 naming it.
    const bad = await t.api(
      "PUT",
      `${base(id)}/data-model/files`,
      { path: "broken.yml", content: "cubes:\n  - name: b\n    measures:\n      - { name: x, type: summ }\n" },
      dev.token,
    );
    const badBody = await bad.json();
    expect(badBody.valid).toBe(false);
    expect(badBody.errors[0]).toMatchObject({ path: "broken.yml", line: expect.any(Number) });
    const read = await t.api("GET", `${base(id)}/data-model/files?path=broken.yml`, undefined, dev.token);
    expect((await read.json()).files[0].content).toContain("summ");
    const invalidQuery = await query(id, { measures: ["orders.count"] }, dev.token);
    expect(invalidQuery.status).toBe(400);
    expect(await invalidQuery.json()).toMatchObject({ code: "data_model_invalid", details: [expect.objectContaining({ path: "broken.yml" })] });
    const status = await t.api("GET", `/api/v1/deployments/${id}/build-status`, undefined, dev.token);
    expect(await status.json()).toMatchObject({ branch, status: "failed", errors: [expect.objectContaining({ path: "broken.yml" })] });

    // An invalid commit never reaches main.
    await t.api("POST", `${base(id)}/commit`, { message: "wip" }, dev.token);
    const refused = await t.api("POST", `${base(id)}/merge-to-default`, { branch }, dev.token);
    expect(refused.status).toBe(400);
    expect((await refused.json()).code).toBe("data_model_invalid");
    expect((await query(id, { measures: ["orders.units"] }, t.adminToken)).status).toBe(400);

    // Fixed: delete, rename, commit, merge.
    expect((await (await t.api("DELETE", `${base(id)}/data-model/files?path=broken.yml`, undefined, dev.token)).json()).valid).toBe(true);
    const renamed = await t.api("POST", `${base(id)}/data-model/files/rename`, { from: "orders.yml", to: "cubes/orders.yml" }, dev.token);
    expect(await renamed.json()).toMatchObject({ valid: true });
    const committed = await t.api("POST", `${base(id)}/commit`, { message: "Units sold" }, dev.token);
    const commitBody = await committed.json();
    expect(commitBody.commit).toMatchObject({ message: "Units sold", authorName: "dev@example.com", branch });
    expect((await (await t.api("POST", `${base(id)}/commit`, { message: "again" }, dev.token)).json()).commit).toBeNull();

    const merged = await t.api("POST", `${base(id)}/merge-to-default`, { branch }, dev.token);
    expect(merged.status).toBe(200);
    expect(await merged.json()).toMatchObject({ into: "main", branchRemoved: true });
    const prod = await query(id, { measures: ["orders.units"] }, t.adminToken);
    expect(prod.status).toBe(200);
    const mirrored = await t.database.db
      .select({ path: dataModelFiles.path })
      .from(dataModelFiles)
      .where(and(eq(dataModelFiles.deploymentId, id), eq(dataModelFiles.branch, "main")));
    expect(mirrored.map((f) => f.path)).toEqual(["cubes/orders.yml"]);
    const branches = await (await t.api("GET", `${base(id)}/branches`, undefined, dev.token)).json();
    expect(branches.items.map((b: { name: string }) => b.name)).toEqual(["main"]);
    // The dev branch went with the merge: writing needs dev mode again.
    const after = await t.api("PUT", `${base(id)}/data-model/files`, { path: "x.yml", content: customersYml }, dev.token);
    expect(after.status).toBe(409);
    expect((await after.json()).code).toBe("not_in_dev_mode");
  });

  it("sends a developer's queries to their dev branch from the moment dev mode is entered, and back when it is left", async () => {
    const id = await newDeployment();
    const units = { measures: ["orders.units"] };
    // Asked (and remembered) before dev mode exists.
    expect((await query(id, units, dev.token)).status).toBe(400);
    const branch = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token)).json()).name as string;
    const content = ordersYml("      - { name: units, sql: quantity, type: sum }\n");
    expect((await t.api("PUT", `${base(id)}/data-model/files`, { path: "orders.yml", content }, dev.token)).status).toBe(200);
    expect((await query(id, units, dev.token)).status).toBe(200);
    expect((await query(id, units, dev2.token)).status).toBe(400);
    expect((await t.api("DELETE", `${base(id)}/dev-mode`, undefined, dev.token)).status).toBeLessThan(300);
    expect((await query(id, units, dev.token)).status).toBe(400);
    expect((await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token)).status).toBe(200);
    expect((await query(id, units, dev.token)).status).toBe(200);
    // Merged with its branch removed: dev mode ends with the branch, queries go to main.
    await t.api("POST", `${base(id)}/commit`, { message: "units" }, dev.token);
    expect((await (await t.api("POST", `${base(id)}/merge-to-default`, { branch }, dev.token)).json()).branchRemoved).toBe(true);
    expect((await query(id, units, dev.token)).status).toBe(200);
    expect((await query(id, { measures: ["orders.count"] }, dev.token)).status).toBe(200);
    const write = await t.api("PUT", `${base(id)}/data-model/files`, { path: "x.yml", content: customersYml }, dev.token);
    expect((await write.json()).code).toBe("not_in_dev_mode");
  });

  it("serves the new main on a node that did not make the merge, without a restart", async () => {
    const id = await newDeployment();
    const otherEngines = createQueryEngineRegistry({ db: t.database.db, secretBox: t.deps.secretBox, logger: silentLogger });
    const otherNode = createApp({ ...t.deps, queryEngines: otherEngines });
    const askOther = () =>
      otherNode.request(`/api/v1/deployments/${id}/query`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ query: { measures: ["orders.units"] } }),
      });
    try {
      expect((await askOther()).status).toBe(400);
      const branch = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token)).json()).name;
      await t.api(
        "PUT",
        `${base(id)}/data-model/files`,
        { path: "orders.yml", content: ordersYml("      - { name: units, sql: quantity, type: sum }\n") },
        dev.token,
      );
      await t.api("POST", `${base(id)}/commit`, { message: "units" }, dev.token);
      expect((await t.api("POST", `${base(id)}/merge-to-default`, { branch }, dev.token)).status).toBe(200);
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = (await askOther()).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
    } finally {
      await otherEngines.close();
    }
  });

  it("takes `model/x.yml` and `x.yml` as the same file, stored without the prefix (decisions: paths under model/)", async () => {
    const id = await newDeployment([{ path: "model/orders.yml", content: ordersYml() }]);
    const hashes0 = await (await t.api("GET", `${base(id)}/data-model/file-hashes?branch=main`, undefined, dev.token)).json();
    expect(Object.keys(hashes0)).toEqual(["orders.yml"]);
    await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token);
    expect((await t.api("PUT", `${base(id)}/data-model/files`, { path: "model/c.yml", content: customersYml }, dev.token)).status).toBe(200);
    const listed = await (await t.api("GET", `${base(id)}/data-model/files`, undefined, dev.token)).json();
    expect(listed.files.map((f: { path: string }) => f.path)).toEqual(["c.yml", "orders.yml"]);
    // Either form reads, renames and deletes the one file.
    const read = await t.api("GET", `${base(id)}/data-model/files?path=model/c.yml`, undefined, dev.token);
    expect((await read.json()).files[0]).toMatchObject({ path: "c.yml", content: customersYml });
    expect((await t.api("PUT", `${base(id)}/data-model/files`, { path: "c.yml", content: customersYml + "# v2\n" }, dev.token)).status).toBe(200);
    expect((await t.api("POST", `${base(id)}/data-model/files/rename`, { from: "model/c.yml", to: "model/cubes/c.yml" }, dev.token)).status).toBe(200);
    const hashes = await (await t.api("GET", `${base(id)}/data-model/file-hashes`, undefined, dev.token)).json();
    expect(Object.keys(hashes)).toEqual(["cubes/c.yml", "orders.yml"]);
    expect((await t.api("DELETE", `${base(id)}/data-model/files?path=model/cubes/c.yml`, undefined, dev.token)).status).toBe(200);
    // A folder named model inside the model folder would be ambiguous: refused.
    const nested = await t.api("PUT", `${base(id)}/data-model/files`, { path: "model/model/x.yml", content: customersYml }, dev.token);
    expect(nested.status).toBe(400);
    expect((await nested.json()).details[0].path).toEqual(["path"]);
  });

  it("refuses writes outside one's own dev branch, model files to viewers, and paths out of the folder", async () => {
    const id = await newDeployment();
    const noDev = await t.api("PUT", `${base(id)}/data-model/files`, { path: "a.yml", content: customersYml }, t.adminToken);
    expect(noDev.status).toBe(409);
    expect((await noDev.json()).code).toBe("not_in_dev_mode");
    expect((await t.api("GET", `${base(id)}/data-model/files`, undefined, viewer.token)).status).toBe(403);
    expect((await t.api("POST", `${base(id)}/dev-mode`, {}, viewer.token)).status).toBe(403);
    await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token);
    for (const p of ["../etc/passwd.yml", "/abs.yml", "a/../../b.yml", "notyaml.txt", ".hidden.yml"]) {
      const res = await t.api("PUT", `${base(id)}/data-model/files`, { path: p, content: "" }, dev.token);
      expect(res.status, p).toBe(400);
    }
    expect((await t.api("GET", `${base(99999)}/data-model/files`, undefined, dev.token)).status).toBe(404);
    // A viewer may not query a branch; a developer may not write another's dev branch by merging into it.
    expect((await query(id, { measures: ["orders.count"] }, viewer.token, "main")).status).toBe(200);
    const devBranch = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token)).json()).name;
    expect((await query(id, { measures: ["orders.count"] }, viewer.token, devBranch)).status).toBe(403);
    await t.api("POST", `${base(id)}/branches`, { name: "feature", from: "main" }, dev2.token);
    expect((await t.api("POST", `${base(id)}/merge`, { from: "feature", into: devBranch }, dev2.token)).status).toBe(403);
  });

  it("leaves the previous state whole when a merge fails half-way", async () => {
    const id = await newDeployment();
    const branch = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token)).json()).name;
    await t.api("PUT", `${base(id)}/data-model/files`, { path: "c.yml", content: customersYml }, dev.token);
    await t.api("POST", `${base(id)}/commit`, { message: "c" }, dev.token);
    const before = await (await t.api("GET", `${base(id)}/branches`, undefined, dev.token)).json();
    const commitsBefore = (await t.database.db.select().from(modelCommits).where(eq(modelCommits.deploymentId, id))).length;
    // The last write of the merge (the mirror of main) fails, as a crash there would.
    await t.database.db.execute(
      sql.raw(`CREATE FUNCTION fail_mirror_${id}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql`),
    );
    await t.database.db.execute(
      sql.raw(
        `CREATE TRIGGER fail_mirror_${id} BEFORE INSERT ON data_model_files FOR EACH ROW WHEN (NEW.deployment_id = ${id}) EXECUTE FUNCTION fail_mirror_${id}()`,
      ),
    );
    try {
      expect((await t.api("POST", `${base(id)}/merge-to-default`, { branch }, dev.token)).status).toBe(500);
    } finally {
      await t.database.db.execute(sql.raw(`DROP TRIGGER fail_mirror_${id} ON data_model_files`));
    }
    expect(await (await t.api("GET", `${base(id)}/branches`, undefined, dev.token)).json()).toEqual(before);
    expect((await t.database.db.select().from(modelCommits).where(eq(modelCommits.deploymentId, id))).length).toBe(commitsBefore);
    expect((await query(id, { measures: ["customers.count"] }, t.adminToken)).status).toBe(400);
    // And the same merge succeeds afterwards.
    expect((await t.api("POST", `${base(id)}/merge-to-default`, { branch }, dev.token)).status).toBe(200);
    expect((await query(id, { measures: ["customers.count"] }, t.adminToken)).status).toBe(200);
  });

  it("deletes a deployment with its whole history", async () => {
    const id = await newDeployment();
    await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token);
    await t.api("PUT", `${base(id)}/data-model/files`, { path: "c.yml", content: customersYml }, dev.token);
    await t.api("POST", `${base(id)}/commit`, { message: "c" }, dev.token);
    await t.api("POST", `${base(id)}/data-model/upload/start`, { branch: "main", mode: "merge" }, dev.token);
    expect((await t.api("DELETE", `/api/v1/deployments/${id}`)).status).toBe(204);
    expect((await t.api("GET", `${base(id)}/branches`, undefined, dev.token)).status).toBe(404);
  });

  it("creates and lists branches, refuses duplicates and reserved names", async () => {
    const id = await newDeployment();
    const created = await t.api("POST", `${base(id)}/branches`, { name: "release/1", from: "main" }, dev.token);
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: "release/1", parentBranch: "main", isDefault: false });
    expect((await t.api("POST", `${base(id)}/branches`, { name: "release/1", from: "main" }, dev.token)).status).toBe(409);
    expect((await t.api("POST", `${base(id)}/branches`, { name: "dev-1-abc", from: "main" }, dev.token)).status).toBe(400);
    expect((await t.api("POST", `${base(id)}/branches`, { name: "x", from: "nope" }, dev.token)).status).toBe(404);
    expect((await t.api("POST", `${base(id)}/branches`, { name: "a..b", from: "main" }, dev.token)).status).toBe(400);
  });

  it("merges changes to different lines of one file from two developers (three-way)", async () => {
    const id = await newDeployment([
      { path: "orders.yml", content: ordersYml() },
      { path: "customers.yml", content: customersYml },
    ]);
    const b1 = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token)).json()).name;
    const b2 = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev2.token)).json()).name;
    // dev adds a measure at the end; dev2 adds a dimension in the middle.
    await t.api(
      "PUT",
      `${base(id)}/data-model/files`,
      { path: "orders.yml", content: ordersYml("      - { name: units, sql: quantity, type: sum }\n") },
      dev.token,
    );
    await t.api("POST", `${base(id)}/commit`, { message: "units" }, dev.token);
    const withTenant = ordersYml().replace(
      "      - { name: status, sql: status, type: string }\n",
      "      - { name: status, sql: status, type: string }\n      - { name: tenant, sql: tenant, type: string }\n",
    );
    await t.api("PUT", `${base(id)}/data-model/files`, { path: "orders.yml", content: withTenant }, dev2.token);
    await t.api("POST", `${base(id)}/commit`, { message: "tenant" }, dev2.token);
    expect((await t.api("POST", `${base(id)}/merge-to-default`, { branch: b1 }, dev.token)).status).toBe(200);
    const second = await t.api("POST", `${base(id)}/merge-to-default`, { branch: b2, removeBranchAfterMerge: false }, dev2.token);
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ fastForward: false, branchRemoved: false });
    const main = await (await t.api("GET", `${base(id)}/data-model/files?branch=main&path=orders.yml`, undefined, dev.token)).json();
    expect(main.files[0].content).toContain("name: units");
    expect(main.files[0].content).toContain("name: tenant");
    expect((await query(id, { measures: ["orders.units"], dimensions: ["orders.tenant"] }, t.adminToken)).status).toBe(200);
    // The kept branch pulls nothing new after its own merge... then pulls a later change of main.
    const pulled = await t.api("POST", `${base(id)}/pull`, {}, dev2.token);
    expect(pulled.status).toBe(200);
    const hashes = await (await t.api("GET", `${base(id)}/data-model/file-hashes?branch=${b2}`, undefined, dev2.token)).json();
    expect(hashes["orders.yml"]).toBe(main.files[0].sha256);
  });

  it("answers 409 merge_conflict with the files when both sides change the same lines, and changes nothing", async () => {
    const id = await newDeployment();
    const b1 = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token)).json()).name;
    const b2 = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev2.token)).json()).name;
    await t.api(
      "PUT",
      `${base(id)}/data-model/files`,
      { path: "orders.yml", content: ordersYml().replace("type: count", "type: count, title: Orders") },
      dev.token,
    );
    await t.api("POST", `${base(id)}/commit`, { message: "title A" }, dev.token);
    await t.api(
      "PUT",
      `${base(id)}/data-model/files`,
      { path: "orders.yml", content: ordersYml().replace("type: count", "type: count, title: Sales") },
      dev2.token,
    );
    await t.api("POST", `${base(id)}/commit`, { message: "title B" }, dev2.token);
    expect((await t.api("POST", `${base(id)}/merge-to-default`, { branch: b1 }, dev.token)).status).toBe(200);
    const mainBefore = await (await t.api("GET", `${base(id)}/branches`, undefined, dev.token)).json();
    const conflict = await t.api("POST", `${base(id)}/merge-to-default`, { branch: b2 }, dev2.token);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ code: "merge_conflict", details: { files: [{ path: "orders.yml", reason: "both_modified" }] } });
    const pullConflict = await t.api("POST", `${base(id)}/pull`, {}, dev2.token);
    expect(pullConflict.status).toBe(409);
    const mainAfter = await (await t.api("GET", `${base(id)}/branches`, undefined, dev.token)).json();
    expect(mainAfter).toEqual(mainBefore);
    // Resolved on the branch: take main's version, then merge.
    await t.api(
      "PUT",
      `${base(id)}/data-model/files`,
      { path: "orders.yml", content: ordersYml().replace("type: count", "type: count, title: Orders") },
      dev2.token,
    );
    await t.api("POST", `${base(id)}/commit`, { message: "resolve" }, dev2.token);
    expect((await t.api("POST", `${base(id)}/pull`, {}, dev2.token)).status).toBe(200);
    expect((await t.api("POST", `${base(id)}/merge-to-default`, { branch: b2 }, dev2.token)).status).toBe(200);
  });

  it("never loses a write between two writers: the loser of the compare-and-swap gets 409", async () => {
    const id = await newDeployment();
    await t.api("GET", `${base(id)}/branches`, undefined, dev.token);
    const a = await getBranch(t.database.db, id, "main");
    const b = await getBranch(t.database.db, id, "main");
    await casBranch(t.database.db, a, { workTree: a.workTree });
    await expect(casBranch(t.database.db, b, { workTree: b.workTree })).rejects.toMatchObject({ code: "branch_head_changed" });
    // Concurrent writes through the API: every one either lands or answers 409, none is lost silently.
    const branch = (await (await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token)).json()).name;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.api("PUT", `${base(id)}/data-model/files`, { path: `c${i}.yml`, content: customersYml.replace("customers", `c${i}`) }, dev.token),
      ),
    );
    const landed = results.filter((r) => r.status === 200).length;
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const files = await (await t.api("GET", `${base(id)}/data-model/files?branch=${branch}`, undefined, dev.token)).json();
    expect(files.files.length).toBe(1 + landed);
  });

  it("uploads files as one atomic commit, checks hashes, and reports the file hashes", async () => {
    const id = await newDeployment();
    await t.api("POST", `${base(id)}/branches`, { name: "ci", from: "main" }, dev.token);
    const start = await t.api("POST", `${base(id)}/data-model/upload/start`, { branch: "ci", mode: "merge" }, dev.token);
    const { uploadId } = await start.json();
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    const wrong = await t.api(
      "POST",
      `${base(id)}/data-model/upload/file`,
      { uploadId, path: "customers.yml", content: b64(customersYml), sha256: sha256Of("other") },
      dev.token,
    );
    expect(wrong.status).toBe(400);
    const ok = await t.api(
      "POST",
      `${base(id)}/data-model/upload/file`,
      { uploadId, path: "customers.yml", content: b64(customersYml), sha256: sha256Of(customersYml) },
      dev.token,
    );
    expect(ok.status).toBe(200);
    // Nothing is visible before finish.
    expect(Object.keys(await (await t.api("GET", `${base(id)}/data-model/file-hashes?branch=ci`, undefined, dev.token)).json())).toEqual(["orders.yml"]);
    // Another user cannot use the upload.
    expect((await t.api("POST", `${base(id)}/data-model/upload/finish`, { uploadId, message: "x" }, dev2.token)).status).toBe(404);
    const finish = await t.api("POST", `${base(id)}/data-model/upload/finish`, { uploadId, message: "From CI" }, dev.token);
    expect(await finish.json()).toMatchObject({ branch: "ci", valid: true, filesChanged: 1, commit: { message: "From CI" } });
    expect(await (await t.api("GET", `${base(id)}/data-model/file-hashes?branch=ci`, undefined, dev.token)).json()).toEqual({
      "customers.yml": sha256Of(customersYml),
      "orders.yml": sha256Of(ordersYml()),
    });
    expect((await t.api("POST", `${base(id)}/data-model/upload/finish`, { uploadId, message: "again" }, dev.token)).status).toBe(404);

    // To main, only a valid model; an invalid upload changes nothing.
    const s2 = await (await t.api("POST", `${base(id)}/data-model/upload/start`, { branch: "main", mode: "replace" }, dev.token)).json();
    const badYml = "cubes:\n  - name: z\n";
    await t.api(
      "POST",
      `${base(id)}/data-model/upload/file`,
      { uploadId: s2.uploadId, path: "z.yml", content: b64(badYml), sha256: sha256Of(badYml) },
      dev.token,
    );
    const refused = await t.api("POST", `${base(id)}/data-model/upload/finish`, { uploadId: s2.uploadId, message: "bad" }, dev.token);
    expect(refused.status).toBe(400);
    expect(Object.keys(await (await t.api("GET", `${base(id)}/data-model/file-hashes?branch=main`, undefined, dev.token)).json())).toEqual(["orders.yml"]);
    // Replace mode on main with a valid model: production serves it.
    const s3 = await (await t.api("POST", `${base(id)}/data-model/upload/start`, { branch: "main", mode: "replace" }, dev.token)).json();
    await t.api(
      "POST",
      `${base(id)}/data-model/upload/file`,
      { uploadId: s3.uploadId, path: "customers.yml", content: b64(customersYml), sha256: sha256Of(customersYml) },
      dev.token,
    );
    expect((await t.api("POST", `${base(id)}/data-model/upload/finish`, { uploadId: s3.uploadId, message: "replace" }, dev.token)).status).toBe(200);
    expect((await query(id, { measures: ["customers.count"] }, t.adminToken)).status).toBe(200);
    expect((await query(id, { measures: ["orders.count"] }, t.adminToken)).status).toBe(400);
  });

  it("refuses a model file larger than the limit with 413 and a clear message", async () => {
    const id = await newDeployment();
    await t.api("POST", `${base(id)}/dev-mode`, {}, dev.token);
    const big = "# " + "x".repeat(520 * 1024) + "\n";
    const s = await (await t.api("POST", `${base(id)}/data-model/upload/start`, { branch: "main", mode: "merge" }, dev.token)).json();
    const res = await t.api(
      "POST",
      `${base(id)}/data-model/upload/file`,
      { uploadId: s.uploadId, path: "big.yml", content: Buffer.from(big).toString("base64"), sha256: sha256Of(big) },
      dev.token,
    );
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/larger than/);
  });
});
