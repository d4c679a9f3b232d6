import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { isInitialised, migratedPgliteDump, migrationsFolder, PGLITE_SETTINGS } from "./pglite-template";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The drizzle database, the same type whether PGlite or a Postgres server is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

/** The advisory lock nodes take while they migrate (any constant unique to this purpose). */
const MIGRATION_LOCK_KEY = 7_310_461_205;

export class DatabaseStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseStartError";
  }
}

function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}

/**
 * Opens platform storage and applies the checked-in migrations: a Postgres server when
 * `databaseUrl` is given, otherwise embedded PGlite under `dataDir` (or in memory for
 * `dataDir: ":memory:"`).
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** In memory only: start from this PGlite data directory dump (the suite's migrated template). */
  pgliteDataDir?: Blob;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 20, connectionTimeoutMillis: 5000 });
    // A pool emits 'error' for idle clients that die; without a listener that crashes the process.
    pool.on("error", () => {});
    try {
      const client = await pool.connect();
      client.release();
    } catch (err) {
      await pool.end().catch(() => {});
      throw new DatabaseStartError(`cannot connect to DATABASE_URL (${describeUrl(opts.databaseUrl)}): ${(err as Error).message}`, { cause: err });
    }
    const db = drizzlePg(pool, { schema });
    // Nodes that start together on one database migrate one at a time: the first applies, the
    // others then find nothing left to do.
    const lock = await pool.connect();
    try {
      await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      await migratePg(db, { migrationsFolder });
    } finally {
      await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
      lock.release();
    }
    const typed: Db = db;
    storeClients.set(typed, pool);
    return { db: typed, kind: "postgres", close: () => pool.end() };
  }
  let client: PGlite;
  const startParams = pgliteStartParams();
  if (opts.dataDir === ":memory:") {
    client = new PGlite({ ...(opts.pgliteDataDir ? { loadDataDir: opts.pgliteDataDir } : {}), startParams });
  } else {
    const dir = path.resolve(opts.dataDir, "pglite");
    mkdirSync(dir, { recursive: true });
    // A new data directory starts as a copy of the migrated template (pglite-template.ts).
    client = isInitialised(dir) ? new PGlite(dir, { startParams }) : new PGlite(dir, { loadDataDir: await migratedPgliteDump(), startParams });
  }
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
  const database: Database & { client: PGlite } = { db: drizzleOverPglite(client), kind: "pglite", close: () => client.close(), client };
  return database;
}

/** PGlite's own start parameters with the platform's settings (pglite-template.ts). */
export const pgliteStartParams = (): string[] => [...PGlite.defaultStartParams, ...PGLITE_SETTINGS];

/** The drizzle database over a PGlite instance (or a proxy of one), typed as any storage's. */
export function drizzleOverPglite(client: PGlite): Db {
  const db: Db = drizzlePglite(client, { schema });
  storeClients.set(db, client);
  return db;
}

/** The driver client under each database this module opened (a transaction on one is not in it). */
const storeClients = new WeakMap<Db, pg.Pool | PGlite>();

/** The `pg` pool or PGlite instance under `db`; null for a transaction or a database opened elsewhere. */
export function storeClientOf(db: Db): pg.Pool | PGlite | null {
  return storeClients.get(db) ?? null;
}

/**
 * True when `db` is embedded PGlite: one process holds it (no second node can open it), so its
 * rows change only by this process's own writes, and a cache this process invalidates on those
 * writes is exact. False for a Postgres server (other nodes write too) and for a transaction.
 */
export function isSingleProcessStore(db: Db): boolean {
  return storeClientOf(db) instanceof PGlite;
}

const hasRows = (result: unknown): result is { rows: unknown[] } =>
  typeof result === "object" && result !== null && Array.isArray((result as { rows?: unknown }).rows);

/** A raw statement's rows (snake_case columns) whichever driver runs it: both answer `{ rows }`; `T` is the statement's row shape. */
export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  if (!hasRows(result)) throw new Error("the database driver answered a statement without rows");
  return result.rows as T[];
}
