import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/connection";
import { createScratchPostgres } from "../testing/test-platform";

describe.skipIf(!process.env.DATABASE_URL)("nodes starting together on a new database", () => {
  it("migrate one at a time: every node opens, the schema is applied once", async () => {
    const scratch = await createScratchPostgres();
    try {
      const opened = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: scratch.url, dataDir: ":memory:", poolSize: 2 })));
      const applied = (await opened[0]!.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as { rows: { n: number }[] };
      const files = (await import("../db/migrations/meta/_journal.json", { with: { type: "json" } })).default.entries.length;
      expect(applied.rows[0]!.n).toBe(files);
      for (const d of opened) await d.close();
    } finally {
      await scratch.drop();
    }
  });
});
