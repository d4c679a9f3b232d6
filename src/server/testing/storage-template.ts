/**
 * Migrated storage templates for the suite: a fresh database for every test platform, without
 * paying for a fresh start and every migration each time.
 *
 * - **PGlite**: the platform's own migrated template (db/pglite-template.ts), which every new
 *   data directory starts from, loaded into memory for each test platform.
 * - **Postgres**: a template database on the server, named by the same hash and migrated once;
 *   each test platform's database is `CREATE DATABASE … TEMPLATE` of it (a file copy on the
 *   server, instead of every migration over the wire).
 */
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { drizzleOverPglite, openDatabase, pgliteStartParams, type Database } from "../db/connection";
import { migratedPgliteDump, migrationsHash } from "../db/pglite-template";

/**
 * PGlite instances a test platform has given back, emptied: loading the template dump costs
 * ~1.4 s of CPU an instance, emptying one ~0.1 s. Test files run one after another in a worker
 * (vitest.config.ts), so a worker's next file starts from the previous file's instance.
 */
const idle: PGlite[] = [];
/** Instances kept for reuse per process (each holds ~100 MB). */
const MAX_IDLE = 2;
/**
 * Reuse happens in the suite's workers only (vitest sets VITEST): a kept instance would keep a
 * one-shot script (`npm run gen:openapi`, the fuzz run) from ending.
 */
const reuse = () => Boolean(process.env.VITEST);

/**
 * A fresh, migrated PGlite in memory: a reused instance emptied back to the template's state,
 * or a new one loaded from the suite's template. The returned database answers only until it is
 * closed — a timer a test left running then fails as on a closed PGlite, never reaching the
 * next file's data.
 */
export async function pgliteFromTemplate(): Promise<Database> {
  const client = idle.pop() ?? (await freshPglite());
  let closed = false;
  const lease = new Proxy(client, {
    get(target, property) {
      if (closed) throw new Error("this test database is closed");
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    db: drizzleOverPglite(lease),
    kind: "pglite",
    async close() {
      if (closed) return;
      closed = true;
      if (reuse() && idle.length < MAX_IDLE && (await emptied(client))) idle.push(client);
      else await client.close();
    },
  };
}

async function freshPglite(): Promise<PGlite> {
  const client = new PGlite({ loadDataDir: await migratedPgliteDump(), startParams: pgliteStartParams() });
  await client.waitReady;
  const [{ tables }] = (await client.query<{ tables: number }>(RELATIONS)).rows;
  templateRelations ??= tables;
  return client;
}

/** How many relations (tables, indexes, sequences, views) the schemas of the platform hold. */
const RELATIONS = `select count(*)::int as tables from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')`;
let templateRelations: number | undefined;

/**
 * Empties an instance back to the template: every table of the platform truncated (identities
 * restarted), the migrations' journal kept, the session's state (settings, prepared statements,
 * advisory locks, temporary tables) discarded. False when the instance cannot be trusted to
 * equal the template (a test changed its schema, or the reset failed): it is closed instead.
 */
async function emptied(client: PGlite): Promise<boolean> {
  try {
    await client.exec("rollback").catch(() => undefined);
    await client.exec("discard all");
    const [{ tables }] = (await client.query<{ tables: number }>(RELATIONS)).rows;
    if (tables !== templateRelations) return false;
    const [{ list }] = (
      await client.query<{ list: string | null }>(
        `select string_agg(format('%I.%I', schemaname, tablename), ', ') as list from pg_tables where schemaname = 'public'`,
      )
    ).rows;
    if (list) await client.exec(`truncate ${list} restart identity cascade`);
    return true;
  } catch {
    return false;
  }
}

const TEMPLATE_LOCK_KEY = 0x5_7c_7e_01;

/**
 * A fresh database on the server of DATABASE_URL, copied from the migrated template (made on
 * first use), dropped by the returned cleanup.
 */
export async function postgresFromTemplate(base: string): Promise<{ url: string; drop(): Promise<void> }> {
  const template = `svc_template_${migrationsHash()}`;
  const name = `svc_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const urlOf = (db: string) => {
    const url = new URL(base);
    url.pathname = "/" + db;
    return url.toString();
  };
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    // One process at a time makes the template or copies it: a copy needs the template idle.
    await admin.query("select pg_advisory_lock($1)", [TEMPLATE_LOCK_KEY]);
    try {
      const exists = await admin.query("select 1 from pg_database where datname = $1", [template]);
      if (exists.rowCount === 0) {
        const building = `${template}_${randomBytes(3).toString("hex")}`;
        await admin.query(`CREATE DATABASE ${building}`);
        try {
          // Two connections: the migration lock holds one while the migrations run on the other.
          const db = await openDatabase({ databaseUrl: urlOf(building), dataDir: ":memory:", poolSize: 2 });
          await db.close();
          await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
        } catch (error) {
          await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`).catch(() => undefined);
          throw error;
        }
      }
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    } finally {
      await admin.query("select pg_advisory_unlock($1)", [TEMPLATE_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await admin.end();
  }
  return {
    url: urlOf(name),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
