import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { isInitialised, isUsableTemplate, migrationsHash, templateFile } from "./pglite-template";

/**
 * A new PGlite data directory starts as a copy of the migrated template kept in the user's
 * cache folder (pglite-template.ts): migrated at once, written only where the user alone may
 * write, and a dump others could have written is never loaded.
 */
const scratch = mkdtempSync(path.join(tmpdir(), "svc-template-"));
const cache = path.join(scratch, "cache");

beforeAll(() => {
  vi.stubEnv("XDG_CACHE_HOME", cache);
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(scratch, { recursive: true, force: true });
});

/** connection.ts as a new process has it: no template read yet (other files of this worker may have read one). */
async function freshOpen(): Promise<typeof import("./connection").openDatabase> {
  vi.resetModules();
  return (await import("./connection")).openDatabase;
}

async function tables(dataDir: string): Promise<string[]> {
  const database = await (await freshOpen())({ dataDir });
  try {
    const rows = await database.db
      .select({ name: sql<string>`tablename` })
      .from(sql`pg_tables`)
      .where(sql`schemaname = 'public'`);
    return rows.map((row) => row.name);
  } finally {
    await database.close();
  }
}

describe("PGlite template", () => {
  it("gives a new data directory every table, and keeps the template readable by its owner only", async () => {
    const dir = path.join(scratch, "data-1");
    const names = await tables(dir);
    expect(names).toContain("workbooks");
    expect(isInitialised(path.join(dir, "pglite"))).toBe(true);
    const folder = path.join(cache, "svc");
    expect(statSync(folder).mode & 0o077).toBe(0);
    const [file] = readdirSync(folder);
    expect(file).toBe(`pglite-template-${migrationsHash()}.tar`);
    expect(statSync(path.join(folder, file!)).mode & 0o077).toBe(0);
    // Opened again, the directory is the same database (the template is not loaded over it).
    const again = await (await freshOpen())({ dataDir: dir });
    await again.db.execute(sql`create table kept (x int)`);
    await again.close();
    expect(await tables(dir)).toContain("kept");
    // Makes the template itself (initdb and every migration, ~10 s of CPU) before three opens.
  }, 120_000);

  it("loads a kept dump only when it is the user's own and nobody else may write it", () => {
    const file = templateFile()!;
    expect(file).toBe(path.join(cache, "svc", `pglite-template-${migrationsHash()}.tar`));
    expect(isUsableTemplate(file)).toBe(true);
    chmodSync(file, 0o666);
    expect(isUsableTemplate(file)).toBe(false);
    chmodSync(file, 0o620);
    expect(isUsableTemplate(file)).toBe(false);
    chmodSync(file, 0o600);
    expect(isUsableTemplate(file)).toBe(true);
    rmSync(file);
    expect(isUsableTemplate(file)).toBe(false);
  });
});
