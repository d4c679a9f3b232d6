import { z } from "zod";
import { Cron } from "croner";
import { granularities, type Granularity } from "../../schema/semantic-query";
import type { Cube, Measure } from "./data-model";

// As in data-model.ts (which imports this file: the constants are repeated, not imported back).
const IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const SQL_REFERENCE = /\{\s*([_a-zA-Z][_a-zA-Z0-9]*)(?:\.([_a-zA-Z][_a-zA-Z0-9]*))?\s*\}/g;

/** A measure and dimension set of one cube, pre-aggregated by a time grain into a table of ours in the data source. */
export interface Rollup {
  name: string;
  /** The cube whose rows are aggregated (the query's root cube must be this one). */
  cube: string;
  /** Measures of `cube` (sum, count, min, max, count_distinct, avg, and number measures built from those). */
  measures: string[];
  /** `<dimension>` of the cube, or `<cube>.<dimension>` of a cube reached by many-to-one joins. */
  dimensions: { cube: string; dimension: string }[];
  /** The time dimension of `cube` the rows are bucketed by, and the bucket size (UTC). */
  timeDimension: { dimension: string; granularity: Granularity };
  /**
   * Partitions by time: a scheduled build rebuilds only the last `updateWindow` partitions (and
   * anything newer) and keeps the earlier ones (rollup-build.ts, docs/data-model.md "Rollups").
   */
  partitionGranularity?: Granularity;
  /** Partitions a scheduled build rebuilds, counted back from the newest built one (default 1); only with `partitionGranularity`. */
  updateWindow?: number;
  /** Cron expression (croner) of the refresh schedule. */
  refreshEvery: string;
  /** SQL returning one value that changes when the source data does; a scheduled build with the same value is skipped. */
  refreshKeySql?: string;
  file: string;
}

/** Longest rollup name: the table is `<name>_<10-character version>`, within Postgres's 63. */
export const MAX_ROLLUP_NAME = 40;

const identifier = z.string().regex(IDENTIFIER, "must match ^[_a-zA-Z][_a-zA-Z0-9]*$");

export const rollupSchema = z.strictObject({
  name: identifier.max(MAX_ROLLUP_NAME, `at most ${MAX_ROLLUP_NAME} characters`),
  cube: identifier,
  measures: z.array(identifier).min(1),
  dimensions: z.array(z.string().regex(/^[_a-zA-Z][_a-zA-Z0-9]*(\.[_a-zA-Z][_a-zA-Z0-9]*)?$/, "a dimension or <cube>.<dimension>")).optional(),
  time_dimension: identifier,
  granularity: z.enum(granularities),
  partition_granularity: z.enum(granularities).optional(),
  update_window: z.number().int().min(1).max(1000).optional(),
  refresh: z
    .strictObject({
      every: z.string().min(1),
      sql: z.string().min(1).optional(),
    })
    .optional(),
});
export type RawRollup = z.infer<typeof rollupSchema>;

/** Default schedule: hourly, on the hour. */
export const DEFAULT_ROLLUP_REFRESH = "0 * * * *";

const GRAIN_ORDER: Granularity[] = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"];

/** Whether buckets of `coarse` are unions of buckets of `fine` (weeks are not unions of months, nor months of weeks). */
export function grainCovers(fine: Granularity, coarse: Granularity): boolean {
  if (fine === coarse) return true;
  if (fine === "week" || coarse === "week") return coarse === "week" && GRAIN_ORDER.indexOf(fine) <= GRAIN_ORDER.indexOf("day");
  return GRAIN_ORDER.indexOf(fine) < GRAIN_ORDER.indexOf(coarse);
}

/** Measure types a rollup can keep (re-aggregated when read). */
const ROLLABLE = new Set<Measure["type"]>(["count", "sum", "min", "max", "count_distinct", "avg", "number"]);

/**
 * Checks a rollup against the cubes; `report` gets each problem with its YAML path below the
 * rollup. Returns the rollup when it is usable.
 */
export function checkRollup(
  raw: RawRollup,
  cubes: Map<string, Cube>,
  file: string,
  report: (path: (string | number)[], message: string) => void,
): Rollup | undefined {
  const before = { n: 0 };
  const problem = (path: (string | number)[], message: string) => {
    before.n++;
    report(path, message);
  };
  const cube = cubes.get(raw.cube);
  if (!cube) {
    problem(["cube"], `unknown cube "${raw.cube}"`);
    return undefined;
  }
  try {
    new Cron(raw.refresh?.every ?? DEFAULT_ROLLUP_REFRESH, { paused: true });
  } catch (e) {
    problem(["refresh", "every"], `refresh.every is not a cron expression: ${(e as Error).message}`);
  }
  const time = cube.dimensions.get(raw.time_dimension);
  if (!time || time.type !== "time") problem(["time_dimension"], `"${raw.time_dimension}" is not a time dimension of cube "${cube.name}"`);
  if (raw.partition_granularity && !grainCovers(raw.granularity, raw.partition_granularity)) {
    problem(["partition_granularity"], `partitions by ${raw.partition_granularity} cannot hold whole ${raw.granularity} buckets`);
  }
  if (raw.update_window !== undefined && !raw.partition_granularity) problem(["update_window"], "update_window needs partition_granularity");
  const reachable = manyToOneReach(cube, cubes);
  const dimensions: Rollup["dimensions"] = [];
  (raw.dimensions ?? []).forEach((name, i) => {
    const [head, tail] = name.includes(".") ? name.split(".") : [cube.name, name];
    const target = cubes.get(head!);
    if (!target || !reachable.has(head!)) {
      return problem(["dimensions", i], `cube "${head}" is not reached from "${cube.name}" by many-to-one joins (a rollup must not multiply rows)`);
    }
    const dim = target.dimensions.get(tail!);
    if (!dim) return problem(["dimensions", i], `unknown dimension "${tail}" of cube "${head}"`);
    if (dim.type === "time") return problem(["dimensions", i], `time dimension "${name}" belongs in time_dimension, with a granularity`);
    if (dimensions.some((d) => d.cube === head && d.dimension === tail)) return problem(["dimensions", i], `duplicate dimension "${name}"`);
    dimensions.push({ cube: head!, dimension: tail! });
  });
  raw.measures.forEach((name, i) => {
    const m = cube.measures.get(name);
    if (!m) return problem(["measures", i], `unknown measure "${name}" of cube "${cube.name}"`);
    if (!ROLLABLE.has(m.type)) return problem(["measures", i], `measure "${name}" of type ${m.type} cannot be rolled up`);
    if (raw.measures.indexOf(name) !== i) return problem(["measures", i], `duplicate measure "${name}"`);
    if (m.type === "number") {
      for (const ref of m.sql!.matchAll(SQL_REFERENCE)) {
        const head = ref[1]!;
        if (ref[2] !== undefined || !cube.measures.has(head)) {
          problem(["measures", i], `number measure "${name}" reads ${ref[0]}, not a measure: only number measures built from measures can be rolled up`);
        } else if (!raw.measures.includes(head)) {
          problem(["measures", i], `number measure "${name}" needs measure "${head}" in the rollup too`);
        }
      }
    }
  });
  if (before.n > 0) return undefined;
  return {
    name: raw.name,
    cube: cube.name,
    measures: raw.measures,
    dimensions,
    timeDimension: { dimension: raw.time_dimension, granularity: raw.granularity },
    ...(raw.partition_granularity ? { partitionGranularity: raw.partition_granularity, updateWindow: raw.update_window ?? 1 } : {}),
    refreshEvery: raw.refresh?.every ?? DEFAULT_ROLLUP_REFRESH,
    ...(raw.refresh?.sql ? { refreshKeySql: raw.refresh.sql } : {}),
    file,
  };
}

/** Cubes reached from `root` (itself included) through many-to-one and one-to-one joins only. */
function manyToOneReach(root: Cube, cubes: Map<string, Cube>): Set<string> {
  const seen = new Set([root.name]);
  const queue = [root];
  while (queue.length) {
    const cube = queue.shift()!;
    for (const join of cube.joins.values()) {
      if (join.relationship === "one_to_many" || seen.has(join.name) || !cubes.has(join.name)) continue;
      seen.add(join.name);
      queue.push(cubes.get(join.name)!);
    }
  }
  return seen;
}
