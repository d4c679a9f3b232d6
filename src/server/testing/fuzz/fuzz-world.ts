import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import * as schema from "../../db/schema";
import { generateDemoDataset } from "../../demo/dataset";
import { demoModelFiles } from "../../demo/seed";
import { authenticateApiKey, createApiKey } from "../../modules/api-keys/service";
import { rowsOf } from "../../modules/access/service";
import type { TestPlatform } from "../test-platform";

/** Who sends a request: the three kinds of caller the platform has, nobody, and a forged bearer. */
export const PRINCIPALS = ["admin", "viewer", "embed", "anonymous"] as const;
export type FuzzPrincipal = (typeof PRINCIPALS)[number];

/** Integer fields and parameters that hold ids, and the pool of live ids each draws from. */
const ID_POOLS: Record<string, string> = {
  deploymentId: "deployment",
  workbookId: "workbook",
  folderId: "folder",
  parentId: "folder",
  targetFolderId: "folder",
  reportId: "report",
  userId: "user",
  principalId: "user",
  attributeId: "userAttribute",
  objectId: "anyId",
  id: "anyId",
};
const STRING_POOLS: Record<string, string> = {
  slug: "slug",
  publicId: "publicId",
  embedTenantName: "tenant",
  keyId: "signingKey",
  sessionId: "word",
};

/** The pool a field draws from (see `PoolOf`). */
export function poolOf(fieldName: string | null, s: { type?: string | string[] }): string | null {
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (fieldName && (types.includes("integer") || types.includes("number"))) return ID_POOLS[fieldName] ?? null;
  if (types.includes("string")) return (fieldName && STRING_POOLS[fieldName]) ?? "word";
  return null;
}

// Records kept beside the state, not state a request changes: a refused login counts against
// its limit, nodes heartbeat (on a timer) and queue jobs on their own, and a refused query may
// still log that its engine was built.
const SIDE_WRITES = new Set(["rate_limit_counters", "cluster_nodes", "cluster_jobs", "deployment_logs"]);
const TABLES = Object.values(schema as Record<string, unknown>).flatMap((t) => (is(t, PgTable) && !SIDE_WRITES.has(getTableName(t)) ? [getTableName(t)] : []));
// Written on the side of a successful authentication, at most once a minute: not state a request
// changes, so this table is compared by content without it.
const CONTENT_ONLY: Record<string, string> = {
  api_keys: "(x.id, x.user_id, x.name, x.prefix, x.token_hash, x.created_at, x.expires_at, x.revoked_at)::text",
};

/**
 * The platform a fuzz run works on: objects of every kind to aim at, the callers' tokens (made
 * again when a request took them away: a revoked key, a demoted admin), pools of live values,
 * and a checksum of the whole database to prove a refused request changed nothing.
 */
export class FuzzWorld {
  readonly tokens: Record<Exclude<FuzzPrincipal, "anonymous">, string> = { admin: "", viewer: "", embed: "" };
  pools: Record<string, unknown[]> = {};
  private dataDir = mkdtempSync(path.join(tmpdir(), "svc-fuzz-"));
  private duckdbPath = path.join(this.dataDir, "shop.duckdb");
  private viewerUserId = 0;
  private seq = 0;

  constructor(readonly t: TestPlatform) {}

  async init() {
    await generateDemoDataset({ path: this.duckdbPath, rows: 1000 });
    this.tokens.admin = this.t.adminToken;
    await this.seed();
    await this.refreshPools();
  }

  close() {
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async call(method: string, url: string, body?: unknown) {
    const res = await this.t.api(method, url, body, this.tokens.admin);
    const text = await res.text();
    if (res.status >= 300) throw new Error(`fuzz world: ${method} ${url} answered ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  }

  /** A deployment on real data with a folder, a published dashboard, a report, a viewer and an embed viewer. */
  async seed() {
    const n = ++this.seq;
    const dep = await this.call("POST", "/build/api/v1/deployments/", {
      name: `fuzz ${n}`,
      dataSource: { type: "duckdb", path: this.duckdbPath },
      dataModelFiles: demoModelFiles(),
    });
    const base = `/api/v1/deployments/${dep.id}`;
    const folder = await this.call("POST", `${base}/folders`, { name: `Shared ${n}` });
    const wb = await this.call("PUT", `${base}/workbooks/by-slug/fuzz-book-${n}`, { name: "Fuzz book", folderId: folder.id, meta: { team: "fuzz" } });
    await this.call("PUT", `${base}/workbooks/${wb.id}/dashboard/draft`, {
      title: "Fuzz",
      widgets: [{ id: "t1", type: "TEXT", position: { x: 0, y: 0, w: 4, h: 2 }, config: { text: "hello" } }],
    });
    const dash = await this.call("POST", `${base}/workbooks/${wb.id}/dashboard/publish`);
    await this.call("PUT", `${base}/reports/by-public-id/FuzzReport${String(n).padStart(2, "0").slice(-2)}`, {
      name: "Orders",
      workbookId: wb.id,
      folderId: folder.id,
      query: { measures: ["sales.count"] },
    });
    await this.call("PATCH", `/api/v1/embed/dashboard/${dash.publicId}`, { allowEmbed: true });
    await this.call("PUT", `${base}/workbooks/${wb.id}/embed-access`, { rules: [{ embedTenantName: null, action: "read" }] });
    const attrs = await this.call("GET", "/api/v1/user-attributes/");
    if (!attrs.items.some((a: { name: string }) => a.name === "region")) {
      await this.call("POST", "/api/v1/user-attributes/", { name: "region", type: "string" });
    }
    await this.newViewer();
    const grant = { objectType: "folder", objectId: folder.id, principalType: "user", principalId: this.viewerUserId, level: "read" };
    await this.call("PUT", `${base}/grants`, grant);
    await this.newEmbedToken(dep.id);
  }

  private async newViewer() {
    const email = `fuzz-viewer-${++this.seq}@example.com`;
    const user = await this.call("POST", "/api/v1/users/", { email, role: "viewer" });
    this.viewerUserId = user.id;
    this.tokens.viewer = (await createApiKey(this.t.database.db, { userId: user.id, name: "fuzz viewer" })).token;
  }

  private async newAdmin() {
    const [user] = await this.t.database.db
      .insert(schema.users)
      .values({ email: `fuzz-admin-${++this.seq}@example.com`, role: "admin" })
      .returning({ id: schema.users.id });
    this.tokens.admin = (await createApiKey(this.t.database.db, { userId: user!.id, name: "fuzz admin" })).token;
  }

  private async newEmbedToken(deploymentId: number) {
    const sessions = this.t.deps.embedSessions;
    const { sessionId } = await sessions.generate({
      deploymentId,
      externalId: `fuzz-embed-${++this.seq}`,
      embedTenantName: "fuzz-tenant",
      tenantGroups: ["fuzz-group"],
      userAttributes: [{ name: "region", value: "EU" }],
    });
    this.tokens.embed = (await sessions.exchange(sessionId)).token;
  }

  /**
   * Makes sure every caller still works and there is something to aim at: requests may delete
   * the deployment, revoke a key, demote the admin or retire the signing key.
   */
  async heal() {
    const db = this.t.database.db;
    const admin = await authenticateApiKey(db, this.tokens.admin);
    if (!admin || admin.role !== "admin") await this.newAdmin();
    const [dep] = await rowsOf<{ id: number }>(db, sql`SELECT id FROM deployments WHERE name LIKE 'fuzz %' ORDER BY id DESC LIMIT 1`);
    if (!dep) {
      await this.seed();
      return;
    }
    const viewer = await authenticateApiKey(db, this.tokens.viewer);
    if (!viewer) await this.newViewer();
    const embed = await this.t.deps.embedSessions.authenticate(this.tokens.embed);
    if (!embed || embed.deploymentId !== dep.id) await this.newEmbedToken(dep.id);
  }

  /** Live ids and words, for generated requests to aim at: the current seeded deployment's first. */
  async refreshPools() {
    const db = this.t.database.db;
    const [home] = await rowsOf<{ id: number }>(db, sql`SELECT id FROM deployments WHERE name LIKE 'fuzz %' ORDER BY id DESC LIMIT 1`);
    const homeId = Number(home?.id ?? 0);
    const ids = async (table: string, scoped = true) => {
      const order = scoped ? `(deployment_id = ${homeId}) DESC, id DESC` : "id DESC";
      return (await rowsOf<{ id: number }>(db, sql.raw(`SELECT id FROM ${table} ORDER BY ${order} LIMIT 20`))).map((r) => Number(r.id));
    };
    const texts = async (query: string) => (await rowsOf<{ v: string }>(db, sql.raw(query))).map((r) => r.v).filter((v) => v !== null);
    const pools: Record<string, unknown[]> = {
      deployment: [homeId, ...(await ids("deployments", false)).filter((id) => id !== homeId)],
      workbook: await ids("workbooks"),
      folder: await ids("folders"),
      report: await ids("reports"),
      user: await ids("users", false),
      userAttribute: await ids("user_attributes", false),
      embedGroup: await ids("embed_groups", false),
      apiKey: await ids("api_keys", false),
      slug: await texts(`SELECT slug AS v FROM workbooks WHERE slug IS NOT NULL ORDER BY (deployment_id = ${homeId}) DESC, id DESC LIMIT 20`),
      publicId: [
        ...(await texts(`SELECT public_id AS v FROM dashboards ORDER BY (deployment_id = ${homeId}) DESC, id DESC LIMIT 10`)),
        ...(await texts(`SELECT public_id AS v FROM reports ORDER BY (deployment_id = ${homeId}) DESC, id DESC LIMIT 10`)),
      ],
      tenant: await texts("SELECT name AS v FROM embed_tenants ORDER BY (name = 'fuzz-tenant') DESC, id DESC LIMIT 10"),
      signingKey: await texts("SELECT id AS v FROM signing_keys LIMIT 5"),
    };
    pools.anyId = [...new Set([...pools.deployment!, ...pools.workbook!, ...pools.folder!, ...pools.user!, ...pools.embedGroup!, ...pools.apiKey!])];
    pools.word = [
      ...pools.slug!,
      ...pools.publicId!,
      ...pools.tenant!,
      ...(await texts("SELECT name AS v FROM embed_groups LIMIT 10")),
      ...(await texts("SELECT name AS v FROM user_attributes LIMIT 10")),
      ...(await texts("SELECT external_id AS v FROM embed_users LIMIT 10")),
      ...(await texts("SELECT email AS v FROM users LIMIT 10")),
      "sales.count",
      "sales.revenue",
      "sales.status",
      "sales.created_at",
      "sales.customers_country",
      "sales.products_category",
      "equals",
      "contains",
      "inDateRange",
      "month",
      "main",
      "sales.yml",
    ];
    this.pools = pools;
  }

  /**
   * A fingerprint of every table: its row count and the newest row version (`xmin`), which any
   * insert, update or delete changes; cheap enough to take around every write.
   */
  /** Waits (at most 10 s) until no background sync an earlier request started is queued or running. */
  async backgroundSettled(): Promise<void> {
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      const [row] = await rowsOf<{ n: number }>(
        this.t.database.db,
        sql.raw("SELECT count(*)::int AS n FROM model_sync_jobs WHERE status IN ('queued', 'running')"),
      );
      if (!row || Number(row.n) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async checksum(): Promise<Map<string, string>> {
    const parts = TABLES.map((t) =>
      CONTENT_ONLY[t]
        ? `SELECT '${t}' AS t, count(*)::text || ':' || md5(coalesce(string_agg(${CONTENT_ONLY[t]}, E'\\n' ORDER BY x.id), '')) AS h FROM ${t} x`
        : `SELECT '${t}' AS t, count(*)::text || ':' || coalesce(max(x.xmin::text::bigint), 0)::text AS h FROM ${t} x`,
    );
    const rows = await rowsOf<{ t: string; h: string }>(this.t.database.db, sql.raw(parts.join(" UNION ALL ")));
    return new Map(rows.map((r) => [r.t, r.h]));
  }
}
