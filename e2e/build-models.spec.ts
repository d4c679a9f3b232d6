/**
 * Data models as code across two API processes on one Postgres server: a developer edits the
 * model in dev mode on process A, queries the branch, merges to main, and process B — which did
 * not make the merge and is not restarted — serves the change. Needs the Postgres server at
 * 127.0.0.1:5432 (trust auth); skipped without it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { processBundle } from "../scripts/build-server.mjs";

const SERVER = "postgresql://postgres@127.0.0.1:5432/test";
const TOKEN = "svc_e2e_build_models_0123456789abcdef";
const PORTS = [18190, 18191];
const extraCube = "cubes:\n  - name: order_stats\n    sql_table: orders\n    measures:\n      - { name: max_quantity, sql: quantity, type: max }\n";

let dbName = "";
let dataDir = "";
const processes: ChildProcess[] = [];

async function postgresAvailable() {
  const c = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

function startApi(bundle: string, port: number, demo: "on" | "off") {
  const url = new URL(SERVER);
  url.pathname = `/${dbName}`;
  // Node itself on the bundle `npm start` runs (not npx), so that stopping the child stops the server.
  const child = spawn(process.execPath, [bundle], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: url.toString(),
      SVC_DATA_DIR: dataDir,
      SVC_ADMIN_TOKEN: TOKEN,
      SVC_SECRET_KEY: "e2e-build-models-secret-key-0123456789",
      SVC_DEMO: demo,
      SVC_DEMO_ROWS: "2000",
      SVC_DEMO_HOST_PORT: "0",
      SVC_LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  processes.push(child);
  return child;
}

async function waitUp(port: number) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`http://localhost:${port}/api/v1/openapi.json`)).ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`API on port ${port} did not start`);
}

test.describe("models as code on two API processes", () => {
  test.beforeAll(async () => {
    test.skip(!(await postgresAvailable()), "no Postgres server at 127.0.0.1:5432");
    test.setTimeout(240_000);
    dbName = `svc_e2e_build_${randomBytes(4).toString("hex")}`;
    dataDir = mkdtempSync(path.join(tmpdir(), "svc-e2e-build-"));
    const admin = new pg.Client({ connectionString: SERVER });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    // A seeds the demo deployment first; B starts on the same storage afterwards.
    const bundle = await processBundle(path.resolve("src/server/main.ts"));
    startApi(bundle, PORTS[0]!, "on");
    await waitUp(PORTS[0]!);
    startApi(bundle, PORTS[1]!, "off");
    await waitUp(PORTS[1]!);
  });

  test.afterAll(async () => {
    for (const p of processes) p.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 1000));
    if (dbName) {
      const admin = new pg.Client({ connectionString: SERVER });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("a merge on one process changes production on the other", async ({ request }) => {
    test.setTimeout(120_000);
    const [a, b] = PORTS.map((p) => `http://localhost:${p}`) as [string, string];
    const headers = { authorization: `Bearer ${TOKEN}` };
    const deployments = await (await request.get(`${a}/api/v1/deployments`, { headers })).json();
    const id = deployments.items[0].id as number;
    const query = (base: string, branch?: string) =>
      request.post(`${base}/api/v1/deployments/${id}/query${branch ? `?branch=${branch}` : ""}`, {
        headers,
        data: { query: { measures: ["order_stats.max_quantity"] } },
      });

    // B serves production before the change (and keeps its engine warm).
    expect((await request.post(`${b}/api/v1/deployments/${id}/query`, { headers, data: { query: { measures: ["sales.count"] } } })).status()).toBe(200);
    expect((await query(b)).status()).toBe(400);

    const dev = await (await request.post(`${a}/build/api/v1/deployments/${id}/dev-mode`, { headers, data: {} })).json();
    const write = await request.put(`${a}/build/api/v1/deployments/${id}/data-model/files`, { headers, data: { path: "order_stats.yml", content: extraCube } });
    expect(await write.json()).toMatchObject({ valid: true });
    // The branch answers on A, production does not know the cube yet on either process.
    expect((await query(a, dev.name)).status()).toBe(200);
    expect((await query(a, "main")).status()).toBe(400);

    expect((await request.post(`${a}/build/api/v1/deployments/${id}/commit`, { headers, data: { message: "order stats" } })).status()).toBe(200);
    const merged = await request.post(`${a}/build/api/v1/deployments/${id}/merge-to-default`, { headers, data: { branch: dev.name } });
    expect(merged.status()).toBe(200);

    // B was not told anything: it sees the new head of main in storage and reloads.
    await expect.poll(async () => (await query(b)).status(), { timeout: 10_000, intervals: [200] }).toBe(200);
    const rows = await (await query(b)).json();
    expect(Number(rows.data[0]["order_stats.max_quantity"])).toBeGreaterThan(0);
  });
});
