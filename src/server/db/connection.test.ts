import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { pgliteFromTemplate } from "../testing/storage-template";
import { DatabaseStartError, openDatabase } from "./connection";
import { deployments } from "./schema";

describe("openDatabase", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-db-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps data in the embedded database across a restart", async () => {
    const first = await openDatabase({ dataDir: dir });
    await first.db.insert(deployments).values({ name: "kept", dataSource: { type: "duckdb", path: "/x.duckdb" } });
    await first.close();
    const second = await openDatabase({ dataDir: dir });
    const rows = await second.db.select().from(deployments);
    expect(rows.map((r) => r.name)).toEqual(["kept"]);
    expect(second.kind).toBe("pglite");
    await second.close();
  });

  it("opens every embedded database with 32 MB of shared buffers (a data directory, in memory, the suite's template)", async () => {
    const shared = async (database: Awaited<ReturnType<typeof openDatabase>>) => {
      const result = (await database.db.execute(sql`show shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
      await database.close();
      return result.rows[0]?.shared_buffers;
    };
    expect(await shared(await openDatabase({ dataDir: dir }))).toBe("32MB");
    expect(await shared(await openDatabase({ dataDir: ":memory:" }))).toBe("32MB");
    expect(await shared(await pgliteFromTemplate())).toBe("32MB");
  });

  it("fails with a one-line reason for an unreachable DATABASE_URL", async () => {
    const err = await openDatabase({ databaseUrl: "postgresql://nobody@127.0.0.1:1/nothing", dataDir: dir }).catch((e) => e);
    expect(err).toBeInstanceOf(DatabaseStartError);
    expect(err.message).toMatch(/^cannot connect to DATABASE_URL \(127\.0\.0\.1:1\/nothing\): /);
    expect(err.message).not.toContain("\n");
  });
});
