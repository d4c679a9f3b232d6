import { formatWallTime } from "../date-range";
import type { FillPlan, QueryPlan } from "./plan";
import { commonTableExpression, qualifiedColumn, type SqlContext } from "./sql-context";

/**
 * WITH entries that turn the rows of `source` into one row per time bucket (× the values of
 * the crossed key columns): "time_grid", "dimension_values" when there is something to cross,
 * "grid" and "filled", the result.
 */
export function fillExpressions(ctx: SqlContext, plan: QueryPlan, fill: FillPlan, source: string): { expressions: string[]; result: string } {
  const { dialect, params } = ctx;
  const q = (name: string) => dialect.quoteIdentifier(name);
  const time = fill.time.column;
  let start: string, end: string;
  if (fill.buckets) {
    start = dialect.cast(params.add(formatWallTime(fill.buckets.first)), "timestamp");
    end = dialect.cast(params.add(formatWallTime(fill.buckets.last)), "timestamp");
  } else {
    start = `(SELECT min(${q(time)}) FROM ${q(source)})`;
    end = `(SELECT max(${q(time)}) FROM ${q(source)})`;
  }
  const series = dialect.timestampSeriesSelect(start, end, dialect.granularityStep(fill.time.granularity), q(time), q("time_grid"));
  const expressions = [commonTableExpression(ctx, "time_grid", series)];
  let gridFrom = q("time_grid");
  if (fill.crossKeys.length) {
    expressions.push(commonTableExpression(ctx, "dimension_values", `SELECT DISTINCT ${fill.crossKeys.map(q).join(", ")} FROM ${q(source)}`));
    gridFrom = `${q("time_grid")} CROSS JOIN ${q("dimension_values")}`;
  }
  expressions.push(commonTableExpression(ctx, "grid", `SELECT * FROM ${gridFrom}`));

  const select = plan.keyColumns.map((k) => qualifiedColumn(ctx, fill.excludedKeys.includes(k) ? source : "grid", k));
  for (const m of plan.measures) {
    const value = qualifiedColumn(ctx, source, m.name);
    select.push(fill.zeroFilled.includes(m.name) ? `COALESCE(${value}, 0) AS ${q(m.name)}` : value);
  }
  const on = [time, ...fill.crossKeys].map((k) => dialect.nullSafeEquals(qualifiedColumn(ctx, source, k), qualifiedColumn(ctx, "grid", k))).join(" AND ");
  expressions.push(commonTableExpression(ctx, "filled", `SELECT ${select.join(", ")}\nFROM ${q("grid")} LEFT JOIN ${q(source)} ON ${on}`));
  return { expressions, result: "filled" };
}
