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
import pg from "pg";
import { openDatabase, type Database } from "../db/connection";
import { migratedPgliteDump, migrationsHash } from "../db/pglite-template";

/** A fresh, migrated PGlite in memory, loaded from the suite's template. */
export async function pgliteFromTemplate(): Promise<Database> {
  return openDatabase({ dataDir: ":memory:", pgliteDataDir: await migratedPgliteDump() });
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
