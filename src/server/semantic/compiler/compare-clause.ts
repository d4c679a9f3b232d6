import type { ComparePlan } from "./compare-ranges";
import type { QueryPlan } from "./plan";
import { scanQuery, type SharedClauses } from "./scan-query";
import { commonTableExpression, qualifiedColumn, type SqlContext } from "./sql-context";

/**
 * WITH entries of a compare query: "baseline_period" and "current_period" (the query's scan
 * over each range, under the same WHERE), "period_keys" (every combination of key values
 * found in either) and "compared", the result: one row per key, each measure's baseline,
 * current, change and relative change. Postgres has no FULL JOIN on IS NOT DISTINCT FROM, so
 * both periods are LEFT JOINed to the union of their keys instead.
 */
export function compareExpressions(ctx: SqlContext, plan: QueryPlan, compare: ComparePlan, shared: SharedClauses): { expressions: string[]; result: string } {
  const { dialect } = ctx;
  const q = (name: string) => dialect.quoteIdentifier(name);
  const [baseline, current, keysName] = ["baseline_period", "current_period", "period_keys"];
  const expressions = [
    commonTableExpression(ctx, baseline, scanQuery(ctx, compare.scans.baseline, shared)),
    commonTableExpression(ctx, current, scanQuery(ctx, compare.scans.current, shared)),
  ];
  const keys = plan.keyColumns;
  let from: string;
  if (keys.length) {
    const list = keys.map(q).join(", ");
    expressions.push(commonTableExpression(ctx, keysName, `SELECT ${list} FROM ${q(baseline)}\nUNION\nSELECT ${list} FROM ${q(current)}`));
    const join = (period: string) =>
      `LEFT JOIN ${q(period)} ON ${keys.map((k) => dialect.nullSafeEquals(qualifiedColumn(ctx, period, k), qualifiedColumn(ctx, keysName, k))).join(" AND ")}`;
    from = [`FROM ${q(keysName)}`, join(baseline), join(current)].join("\n");
  } else {
    // Without key columns each scan is one row (an aggregate over all rows).
    from = `FROM ${q(baseline)} CROSS JOIN ${q(current)}`;
  }
  const value = (period: string, measure: string) => {
    const v = qualifiedColumn(ctx, period, measure);
    return compare.zeroFilled.includes(measure) ? `COALESCE(${v}, 0)` : v;
  };
  const select = keys.map((k) => qualifiedColumn(ctx, keysName, k));
  for (const c of compare.columns) {
    const before = value(baseline, c.measure.name);
    const after = value(current, c.measure.name);
    const change = `${after} - ${before}`;
    const sql = {
      baseline: before,
      current: after,
      change,
      relativeChange: `(${change}) / NULLIF(${dialect.cast(before, "double")}, 0)`,
    }[c.output];
    select.push(`${sql} AS ${q(c.column)}`);
  }
  expressions.push(commonTableExpression(ctx, "compared", `SELECT ${select.join(",\n  ")}\n${from}`));
  return { expressions, result: "compared" };
}
