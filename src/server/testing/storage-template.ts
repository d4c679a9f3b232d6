/**
 * Migrated storage templates for the suite: a fresh database for every test platform, without
 * paying for a fresh start and every migration each time.
 *
 * - **PGlite**: starting an empty PGlite runs initdb inside wasm (seconds on this machine);
 *   loading a data directory dump skips it. The first test process that needs one migrates a
 *   PGlite, dumps it to a file named by the hash of the migrations and of PGlite's version (in
 *   the system's temp folder, written under a temporary name and renamed, so processes racing
 *   to write it never read half a file), and every test platform after that, in any process,
 *   loads that dump. Migrations still run on the loaded copy (they find nothing to do), so a
 *   stale dump can never hide a migration.
 * - **Postgres**: a template database on the server, named by the same hash and migrated once;
 *   each test platform's database is `CREATE DATABASE … TEMPLATE` of it (a file copy on the
 *   server, instead of every migration over the wire).
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { openDatabase, type Database } from "../db/connection";

const migrationsFolder = fileURLToPath(new URL("../db/migrations", import.meta.url));

let hashOnce: string | null = null;

/** The migrations' content and PGlite's version, hashed: a template is valid for exactly these. */
export function migrationsHash(): string {
  if (hashOnce) return hashOnce;
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else hash.update(entry.name).update(readFileSync(file));
    }
  };
  walk(migrationsFolder);
  // PGlite's own version too: its package folder, found from its main file.
  const main = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  let dir = path.dirname(main);
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  hash.update((JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version);
  hashOnce = hash.digest("hex").slice(0, 16);
  return hashOnce;
}

let dumpOnce: Promise<Blob> | null = null;

async function pgliteDump(): Promise<Blob> {
  const file = path.join(tmpdir(), `svc-pglite-template-${migrationsHash()}.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const fresh = await openDatabase({ dataDir: ":memory:" });
  try {
    const client = (fresh as Database & { client?: PGlite }).client;
    if (!client) throw new Error("the PGlite database exposes no client to dump");
    const dump = await client.dumpDataDir("none");
    const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  } finally {
    await fresh.close();
  }
}

/** A fresh, migrated PGlite in memory, loaded from the suite's template. */
export async function pgliteFromTemplate(): Promise<Database> {
  dumpOnce ??= pgliteDump();
  dumpOnce.catch(() => (dumpOnce = null));
  return openDatabase({ dataDir: ":memory:", pgliteDataDir: await dumpOnce });
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
