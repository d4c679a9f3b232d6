import { createHash } from "node:crypto";
import type { DataSource } from "../datasources/data-source";
import { dialectFor } from "./compiler/dialects";
import { ROLLUP_SCHEMA, rollupBuildSql, rollupColumns, rollupRowOrder, type BuiltRollup } from "./compiler/rollup-plan";
import type { DataModel } from "./data-model";
import { addToWallTime, formatWallTime, truncateWallTime } from "./date-range";
import type { Rollup } from "./rollup-definition";

/** Engines rollups are built on: a table of ours in the data source itself. */
export const ROLLUP_DIALECTS = ["duckdb", "postgres", "mysql"] as const;

/**
 * The rollup's table, `svc_rollups.<name>_<version>`: the version is a hash of the build
 * statement, so a change of the rollup or of the SQL of anything it reads is a new table (an
 * old build is never read for a new definition).
 */
export function rollupTable(model: DataModel, rollup: Rollup, dialect: DataSource["dialect"]): string {
  const version = createHash("sha256")
    .update(rollupBuildSql(model, rollup, dialectFor(dialect)))
    .digest("hex")
    .slice(0, 10);
  return `${ROLLUP_SCHEMA}.${rollup.name}_${version}`;
}

/** What a build left in the data source. */
export interface RollupBuildResult extends BuiltRollup {
  rowCount: number;
  /** Bytes on disk, where the engine says (Postgres). */
  sizeBytes: number | null;
  /** `full`: every row aggregated again; `incremental`: the partitions from `from` on, the earlier ones kept. */
  mode: "full" | "incremental";
  /** The first partition an incremental build aggregated again (UTC wall time, `YYYY-MM-DD HH:MM:SS`). */
  from?: string;
}

/** `auto`: incremental where the rollup has partitions and a built table to keep them from; `full`: everything again. */
export type RollupBuildMode = "auto" | "full";

/** The n-th (1-based) statement parameter. */
const param = (dialect: DataSource["dialect"], n: number) => (dialect === "mysql" ? "?" : `$${n}`);

const q = (dialect: DataSource["dialect"], table: string) =>
  table
    .split(".")
    .map((p) => dialectFor(dialect).quoteIdentifier(p))
    .join(".");

/**
 * Builds the rollup: its rows go to a new table that replaces the old one by a rename, so
 * readers see the previous build until the new one is complete. In `auto` mode a rollup with
 * partitions whose table of this version holds rows is built incrementally, in place: in one
 * transaction the last `updateWindow` partitions (and anything newer) are deleted and
 * aggregated again from the source; the earlier ones stay as they are. Older versions of the
 * rollup's table are dropped.
 */
export function buildRollupTable(
  dataSource: DataSource,
  model: DataModel,
  rollup: Rollup,
  signal?: AbortSignal,
  mode: RollupBuildMode = "full",
): Promise<RollupBuildResult> {
  // One build at a time per data source in this process: DuckDB refuses two catalog changes at once.
  const previous = buildsInLine.get(dataSource) ?? Promise.resolve();
  const mine = previous.catch(() => {}).then(() => buildTable(dataSource, model, rollup, mode, signal));
  buildsInLine.set(
    dataSource,
    mine.catch(() => {}),
  );
  return mine;
}

const buildsInLine = new WeakMap<DataSource, Promise<unknown>>();

/**
 * Where an incremental build starts: the newest partition the built table holds, and the
 * `updateWindow - 1` before it (UTC). Null when there is nothing to keep (no partitions, no
 * table of this version, no rows).
 */
async function incrementalStart(dataSource: DataSource, rollup: Rollup, table: string, signal?: AbortSignal): Promise<Date | null> {
  if (!rollup.partitionGranularity || !(await tableExists(dataSource, table))) return null;
  const bucket = dialectFor(dataSource.dialect).quoteIdentifier(rollupColumns.time(rollup));
  const [row] = await dataSource.query(`SELECT max(${bucket}) AS m FROM ${q(dataSource.dialect, table)}`, [], { signal });
  if (row?.m === null || row?.m === undefined) return null;
  const text = String(row.m);
  // Bucket starts are UTC wall times; a driver may hand one back with or without a zone.
  const newest = new Date(/(Z|[+-]\d\d:?\d\d)$/i.test(text) ? text : `${text.replace(" ", "T")}Z`);
  if (Number.isNaN(newest.getTime())) return null;
  return addToWallTime(truncateWallTime(newest, rollup.partitionGranularity), -((rollup.updateWindow ?? 1) - 1), rollup.partitionGranularity);
}

/** A UTC wall time as SQL timestamp text, `YYYY-MM-DD HH:MM:SS`. */
export function timestampText(wall: Date): string {
  return formatWallTime(wall).slice(0, 19).replace("T", " ");
}

async function buildTable(dataSource: DataSource, model: DataModel, rollup: Rollup, mode: RollupBuildMode, signal?: AbortSignal): Promise<RollupBuildResult> {
  const dialect = dataSource.dialect;
  if (!(ROLLUP_DIALECTS as readonly string[]).includes(dialect)) throw new Error(`rollups are not built on ${dialect} data sources yet`);
  const table = rollupTable(model, rollup, dialect);
  const name = table.slice(ROLLUP_SCHEMA.length + 1);
  const staging = `${ROLLUP_SCHEMA}.${name}__building`;
  const run = (sql: string) => dataSource.query(sql, [], { signal });
  const start = mode === "auto" ? await incrementalStart(dataSource, rollup, table, signal) : null;
  const from = start === null ? null : timestampText(start);
  // Another node may create the schema at the same moment (Postgres then reports a duplicate): it exists either way.
  await run(`CREATE SCHEMA IF NOT EXISTS ${q(dialect, ROLLUP_SCHEMA)}`).catch(async (e: unknown) => {
    const [found] = await dataSource.query(`SELECT 1 AS ok FROM information_schema.schemata WHERE schema_name = ${param(dialect, 1)}`, [ROLLUP_SCHEMA]);
    if (!found) throw e;
  });
  if (start === null) {
    await run(`DROP TABLE IF EXISTS ${q(dialect, staging)}`);
    // On DuckDB the rows are written in the order its row groups' bounds serve best (rollupRowOrder).
    const order =
      dialect === "duckdb"
        ? `\nORDER BY ${rollupRowOrder(model, rollup)
            .map((c) => q(dialect, c))
            .join(", ")}`
        : "";
    await run(`CREATE TABLE ${q(dialect, staging)} AS\n${rollupBuildSql(model, rollup, dialectFor(dialect))}${order}`);
    if (dialect === "duckdb") await narrowWideSums(dataSource, model, rollup, staging, signal);
    await run(`DROP TABLE IF EXISTS ${q(dialect, table)}`);
    // MySQL's ALTER … RENAME TO would move the table to the connection's database.
    if (dialect === "mysql") await run(`RENAME TABLE ${q(dialect, staging)} TO ${q(dialect, table)}`);
    else await run(`ALTER TABLE ${q(dialect, staging)} RENAME TO ${dialectFor(dialect).quoteIdentifier(name)}`);
  } else {
    // In place, in one transaction: the window's partitions removed and aggregated again from
    // the source; the kept partitions are not touched (readers see the previous rows until the
    // commit). `from` is a bucket edge of our own making (a formatted date), not a value from a request.
    const bucket = dialectFor(dialect).quoteIdentifier(rollupColumns.time(rollup));
    const edge = `TIMESTAMP '${from}'`;
    const rowsSince = timestampText(addToWallTime(start, -1, "day"));
    const windowBuild = rollupBuildSql(model, rollup, dialectFor(dialect), { rowsSince });
    await dataSource.transaction(
      [
        `DELETE FROM ${q(dialect, table)} WHERE ${bucket} >= ${edge}`,
        `INSERT INTO ${q(dialect, table)}\nSELECT * FROM (\n${windowBuild}\n) AS window_rows WHERE ${bucket} >= ${edge}`,
      ],
      signal ? { signal } : {},
    );
  }
  const [count] = await run(`SELECT count(*) AS n FROM ${q(dialect, table)}`);
  let sizeBytes: number | null = null;
  if (dialect === "postgres") {
    const [size] = await dataSource.query(`SELECT pg_total_relation_size($1::regclass) AS n`, [q(dialect, table)], { signal });
    sizeBytes = Number(size?.n ?? 0);
  } else if (dialect === "mysql") {
    const [size] = await dataSource.query(`SELECT data_length + index_length AS n FROM information_schema.tables WHERE table_schema = ? AND table_name = ?`, [
      ROLLUP_SCHEMA,
      name,
    ]);
    sizeBytes = size ? Number(size.n) : null;
  }
  for (const old of await dataSource.query(
    `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ${param(dialect, 1)} AND table_name LIKE ${param(dialect, 2)} AND table_name <> ${param(dialect, 3)}`,
    [ROLLUP_SCHEMA, `${rollup.name}\\_%`, name],
    { signal },
  )) {
    const oldName = String(old.t);
    // Only `<name>_<10 hex>` tables are this rollup's (another rollup may be called `<name>_more`).
    if (new RegExp(`^${rollup.name}_[0-9a-f]{10}(__building)?$`).test(oldName)) await run(`DROP TABLE IF EXISTS ${q(dialect, `${ROLLUP_SCHEMA}.${oldName}`)}`);
  }
  return { rollup, table, rowCount: Number(count?.n ?? 0), sizeBytes, ...(from === null ? { mode: "full" as const } : { mode: "incremental" as const, from }) };
}

/**
 * DuckDB writes a sum of DECIMAL(p, s) as DECIMAL(38, s) and a sum of integers as HUGEINT, which
 * it reads many times slower than 64-bit values (a rollup by day summed again took longer than
 * the orders it came from). Each such column whose values all fit is stored as DECIMAL(18, s) or
 * BIGINT; the values, and the type a sum of them has when read, stay the same. A column whose
 * values do not fit keeps its type (DuckDB refuses the change).
 */
async function narrowWideSums(dataSource: DataSource, model: DataModel, rollup: Rollup, table: string, signal?: AbortSignal): Promise<void> {
  const [schema, name] = table.split(".") as [string, string];
  const measures = model.cubes.get(rollup.cube)!.measures;
  // Sums only: a min or max keeps the type the cube's own column has.
  const sums = new Set(
    rollup.measures.flatMap((m) => {
      const type = measures.get(m)?.type;
      return type === "sum" ? [rollupColumns.measure(m)] : type === "avg" ? [rollupColumns.avgSum(m)] : [];
    }),
  );
  const columns = await dataSource.query(
    `SELECT column_name AS c, data_type AS t FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2`,
    [schema, name],
    { signal },
  );
  for (const { c, t } of columns) {
    if (!sums.has(String(c))) continue;
    const type = String(t);
    const scale = /^DECIMAL\(38,(\d+)\)$/.exec(type)?.[1];
    const narrow = type === "HUGEINT" ? "BIGINT" : scale !== undefined && Number(scale) < 18 ? `DECIMAL(18,${scale})` : null;
    if (!narrow) continue;
    const column = dialectFor("duckdb").quoteIdentifier(String(c));
    await dataSource.query(`ALTER TABLE ${q("duckdb", table)} ALTER COLUMN ${column} TYPE ${narrow}`, [], { signal }).catch((e: unknown) => {
      if (signal?.aborted) throw e;
    });
  }
}

/** Whether the rollup's current table exists in the data source (a build survived a restart). */
export function rollupTableExists(dataSource: DataSource, model: DataModel, rollup: Rollup): Promise<boolean> {
  return tableExists(dataSource, rollupTable(model, rollup, dataSource.dialect));
}

/** Whether `svc_rollups.<name>` exists. */
async function tableExists(dataSource: DataSource, table: string): Promise<boolean> {
  const p = (n: number) => param(dataSource.dialect, n);
  const rows = await dataSource.query(`SELECT 1 AS ok FROM information_schema.tables WHERE table_schema = ${p(1)} AND table_name = ${p(2)}`, [
    ROLLUP_SCHEMA,
    table.slice(ROLLUP_SCHEMA.length + 1),
  ]);
  return rows.length > 0;
}

/** The rollup's refresh key now (its `refresh.sql`'s first value, as text), or null without one. */
export async function rollupRefreshKey(dataSource: DataSource, rollup: Rollup, signal?: AbortSignal): Promise<string | null> {
  if (!rollup.refreshKeySql) return null;
  const [row] = await dataSource.query(rollup.refreshKeySql, [], { signal });
  return row ? JSON.stringify(Object.values(row)[0] ?? null) : "null";
}
