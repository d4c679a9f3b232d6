/**
 * A migrated PGlite data directory, made once per machine and copied into every new one.
 *
 * An empty PGlite runs initdb inside wasm before its first query: 5 s on disk on a two-core
 * machine, where loading a data-directory dump takes under 1 s. So a new data directory (first
 * start, a new `SVC_DATA_DIR`, every test platform) starts from a dump of a PGlite that was
 * initialised in memory (about half the time of initdb on disk) and migrated. The dump is
 * named by the hash of the migrations and of PGlite's version; migrations still run on every
 * open (they find nothing to do on a copy), so a stale dump cannot hide a migration.
 *
 * Where it is kept: the user's cache folder (`$XDG_CACHE_HOME/svc`, else `~/.cache/svc`),
 * created readable by its owner only, never a shared temp folder another user could write a
 * dump into. A file that is not the user's own, or that others may write, is ignored. It is
 * written under a temporary name and renamed, so processes racing to write it never read half
 * a file. When no cache folder can be written, the dump is kept in memory for this process.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

let hashOnce: string | null = null;

/**
 * Settings of every PGlite the platform opens, after PGlite's own start parameters: 32 MB of
 * shared buffers instead of Postgres's 128 MB. The platform's tables fit many times over, and an
 * instance then takes ~145 MB of memory instead of ~250 MB and opens in ~0.9 s instead of ~1.5 s
 * of wall time; a process with less memory also starts its children (Python reports, git)
 * faster, since each start copies the parent's page tables (docs/benchmarks.md).
 */
export const PGLITE_SETTINGS: readonly string[] = ["-c", "shared_buffers=32MB"];

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
  let dir = path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  hash.update((JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version);
  hashOnce = hash.digest("hex").slice(0, 16);
  return hashOnce;
}

/** The cache folder of this user, or null when none can be made. */
function cacheDir(): string | null {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  const dir = path.join(base, "svc");
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return ownedAndPrivate(dir) ? dir : null;
  } catch {
    return null;
  }
}

/** Owned by this process's user and not writable by group or others. */
function ownedAndPrivate(file: string): boolean {
  const st = statSync(file);
  const uid = process.getuid?.();
  return (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
}

/**
 * Made in a worker thread: initdb is seconds of wasm, which then runs on another core while the
 * process goes on loading (`npm run dev` and the launcher start this before the server's modules
 * are imported). The worker imports PGlite and drizzle's migrator itself, by resolved URL.
 */
const MAKE_DUMP = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  const { PGlite } = await import(workerData.pglite);
  const { drizzle } = await import(workerData.drizzle);
  const { migrate } = await import(workerData.migrator);
  const client = new PGlite({ startParams: [...PGlite.defaultStartParams, ...workerData.settings] });
  try {
    await migrate(drizzle(client), { migrationsFolder: workerData.migrationsFolder });
    const dump = await client.dumpDataDir("none");
    const bytes = await dump.arrayBuffer();
    parentPort.postMessage(bytes, [bytes]);
  } finally {
    await client.close();
  }
})().catch((error) => { parentPort.postMessage({ error: String(error && error.stack || error) }); });
`;

function makeDump(): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(MAKE_DUMP, {
      eval: true,
      workerData: {
        pglite: import.meta.resolve("@electric-sql/pglite"),
        drizzle: import.meta.resolve("drizzle-orm/pglite"),
        migrator: import.meta.resolve("drizzle-orm/pglite/migrator"),
        migrationsFolder,
        settings: PGLITE_SETTINGS,
      },
    });
    worker.once("message", (message: ArrayBuffer | { error: string }) => {
      void worker.terminate();
      if (message instanceof ArrayBuffer) resolve(new Blob([message]));
      else reject(new Error(`the PGlite template could not be made: ${message.error}`));
    });
    worker.once("error", reject);
  });
}

/** Where this user's template for these migrations is kept (null when no cache folder can be made). */
export function templateFile(): string | null {
  const dir = cacheDir();
  return dir ? path.join(dir, `pglite-template-${migrationsHash()}.tar`) : null;
}

/** Whether a kept template may be loaded: there, the user's own, and writable by nobody else. */
export function isUsableTemplate(file: string): boolean {
  return existsSync(file) && ownedAndPrivate(file);
}

async function loadOrMakeDump(): Promise<Blob> {
  const file = templateFile();
  if (file && isUsableTemplate(file)) return new Blob([readFileSync(file)]);
  const dump = await makeDump();
  if (file) {
    const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    try {
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
      renameSync(partial, file);
    } catch {
      // A read-only home: the dump serves this process only.
    }
  }
  return dump;
}

let dumpOnce: Promise<Blob> | null = null;

/**
 * The migrated template's dump (made on first use on this machine, then read from the cache).
 * Calling it early starts the work; later calls share it.
 */
export function migratedPgliteDump(): Promise<Blob> {
  dumpOnce ??= loadOrMakeDump();
  dumpOnce.catch(() => (dumpOnce = null));
  return dumpOnce;
}

/** Whether a PGlite data directory has been initialised (holds a cluster). */
export function isInitialised(dataDir: string): boolean {
  return existsSync(path.join(dataDir, "PG_VERSION"));
}

/**
 * Starts the template's preparation before the server's modules are loaded, when the platform
 * is about to open a PGlite data directory that does not exist yet (no DATABASE_URL; the data
 * folder of SVC_DATA_DIR, `.data` by default, as config.ts reads it). Its failure is the open's.
 */
export function prepareTemplateEarly(env: NodeJS.ProcessEnv = process.env): void {
  if (env.DATABASE_URL) return;
  const dataDir = env.SVC_DATA_DIR || ".data";
  if (dataDir === ":memory:" || isInitialised(path.resolve(dataDir, "pglite"))) return;
  migratedPgliteDump().catch(() => {});
}
