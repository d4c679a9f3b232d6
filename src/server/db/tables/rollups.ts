/** Tables of rollups; re-exported by ../schema.ts so drizzle and the migrations see them. */
import { bigint, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * The build state of each rollup of a deployment's model (docs/data-model.md "Rollups"): the
 * table in the data source holds the rows, this row says which table is current and when the
 * next build is due; every node reads it to know which rollups may answer.
 */
export const rollupBuilds = pgTable(
  "rollup_builds",
  {
    deploymentId: integer("deployment_id").notNull(),
    name: text("name").notNull(),
    state: text("state").$type<"pending" | "building" | "built" | "failed">().notNull().default("pending"),
    /** `svc_rollups.<name>_<version>` of the last good build. */
    tableName: text("table_name"),
    rowCount: bigint("row_count", { mode: "number" }),
    sizeBytes: bigint("size_bytes", { mode: "number" }),
    /** The refresh key's value at the last build. */
    refreshKey: text("refresh_key"),
    builtAt: ts("built_at"),
    nextBuildAt: ts("next_build_at"),
    error: text("error"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deploymentId, t.name] })],
);
