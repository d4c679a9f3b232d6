import { randomBytes } from "node:crypto";
import pg from "pg";
import { createApp } from "../app";
import type { AppDeps } from "../context";
import { openDatabase, type Database } from "../db/connection";
import { silentLogger } from "../logger";
import { deployments } from "../db/schema";
import { createApiKey } from "../modules/api-keys/service";
import { bootstrapAccount } from "../bootstrap";
import { createPlatformServices } from "../platform-services";
import { createSecretBox } from "../crypto/secret-box";
import { startClusterNode, type ClusterNode } from "../cluster/node";
import { enforceResponseContract } from "./response-contract";
import { pgliteFromTemplate, postgresFromTemplate } from "./storage-template";

/** Storage kinds the suite runs against: PGlite always, the Postgres server when DATABASE_URL is set. */
export const storageKinds: ("pglite" | "postgres")[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/**
 * A fresh Postgres database on the server of DATABASE_URL, dropped by the returned cleanup.
 * Each test file gets its own, so files can run in parallel.
 */
function requireDatabaseUrl(): string {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("DATABASE_URL is not set");
  return base;
}

export async function createScratchPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = requireDatabaseUrl();
  const name = `svc_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = "/" + name;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestPlatform {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  database: Database;
  /** This platform's row in cluster_nodes (heartbeating); its job runner is not started unless a test starts it. */
  node: ClusterNode;
  adminToken: string;
  adminUserId: number;
  /** `app.request` with the admin key and JSON encoding. */
  api(method: string, path: string, body?: unknown, token?: string | null): Promise<Response>;
  /** Deployments (DuckDB-typed rows, no data behind them) for API tests; their ids in order. */
  addDeployments(...names: string[]): Promise<number[]>;
  /** A user created through the users API, with an API key of its own. */
  addUser(email: string, role: "viewer" | "ai_bi_user" | "developer" | "admin", extra?: Record<string, unknown>): Promise<{ id: number; token: string }>;
  close(): Promise<void>;
}

/** An in-process platform on fresh storage, with an admin user and key. */
export async function createTestPlatform(
  opts: { storage?: "pglite" | "postgres"; tokenTtlSeconds?: number; mutateDeps?: (deps: AppDeps) => AppDeps } = {},
): Promise<TestPlatform> {
  const storage = opts.storage ?? "pglite";
  // Fresh storage copied from the suite's migrated template (storage-template.ts).
  const scratch = storage === "postgres" ? await postgresFromTemplate(requireDatabaseUrl()) : null;
  const database = scratch ? await openDatabase({ databaseUrl: scratch.url, dataDir: ":memory:", poolSize: 10 }) : await pgliteFromTemplate();
  const secretBox = createSecretBox(randomBytes(32));
  const adminToken = "svc_" + randomBytes(24).toString("base64url");
  const boot = await bootstrapAccount(database.db, { adminEmail: "admin@example.com", adminToken });
  // The platform registers itself in cluster_nodes like a served one (the pods list shows it);
  // its job runner is not started, so no background job runs behind a test's back.
  const node = await startClusterNode({ db: database.db, logger: silentLogger, version: "test" });
  const services = await createPlatformServices({ db: database.db, secretBox, logger: silentLogger, tokenTtlSeconds: opts.tokenTtlSeconds, clusterNode: node });
  let deps: AppDeps = { db: database.db, logger: silentLogger, secretBox, publicUrl: "http://localhost", ...services.deps };
  if (opts.mutateDeps) deps = opts.mutateDeps(deps);
  // Every answer a test receives is checked against the OpenAPI document (response-contract.ts).
  const app = enforceResponseContract(createApp(deps));
  const platform: TestPlatform = {
    app,
    deps,
    database,
    node,
    adminToken,
    adminUserId: boot.adminUserId,
    api(method, path, body, token = adminToken) {
      const headers: Record<string, string> = {};
      if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers["content-type"] = "application/json";
      return Promise.resolve(
        app.request(path, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) }),
      );
    },
    async addDeployments(...names) {
      const rows = await database.db
        .insert(deployments)
        .values(names.map((name) => ({ name, dataSource: { type: "duckdb" as const, path: `/tmp/${name}.duckdb` } })))
        .returning({ id: deployments.id });
      return rows.map((r) => r.id);
    },
    async addUser(email, role, extra = {}) {
      const res = await platform.api("POST", "/api/v1/users/", { email, role, ...extra });
      if (res.status !== 201) throw new Error(`creating ${email} failed: ${res.status} ${await res.text()}`);
      const { id } = (await res.json()) as { id: number };
      return { id, token: (await createApiKey(database.db, { userId: id, name: email })).token };
    },
    async close() {
      await services.close();
      await node.stop();
      await database.close();
      await scratch?.drop();
    },
  };
  return platform;
}
