import type { ComparisonPlan, QueryPlan } from "./plan";
import { scanQuery, type SharedClauses } from "./scan-query";
import { commonTableExpression, qualifiedColumn, type SqlContext } from "./sql-context";

/** What period comparisons add to the WITH form of a statement. */
export interface ComparisonClauses {
  /** One WITH entry per comparison: its shifted scan. */
  expressions: string[];
  /** LEFT JOIN lines matching each comparison's rows to the result rows by key columns. */
  joins: string[];
  /** Output columns: previous value, change, relative change, as asked. */
  select: string[];
}

/** `base` names the row source the comparisons are joined to. */
export function comparisonClauses(ctx: SqlContext, plan: QueryPlan, shared: SharedClauses, base: string): ComparisonClauses {
  const out: ComparisonClauses = { expressions: [], joins: [], select: [] };
  plan.comparisons.forEach((c, i) => {
    const name = `period_${i}`;
    out.expressions.push(commonTableExpression(ctx, name, scanQuery(ctx, c.scan, shared)));
    out.joins.push(comparisonJoin(ctx, plan.keyColumns, name, base));
    out.select.push(...outputColumns(ctx, c, name, base));
  });
  return out;
}

function comparisonJoin(ctx: SqlContext, keyColumns: string[], name: string, base: string): string {
  const on = keyColumns.map((k) => ctx.dialect.nullSafeEquals(qualifiedColumn(ctx, name, k), qualifiedColumn(ctx, base, k))).join(" AND ");
  return `LEFT JOIN ${ctx.dialect.quoteIdentifier(name)} ON ${on || "TRUE"}`;
}

function outputColumns(ctx: SqlContext, c: ComparisonPlan, name: string, base: string): string[] {
  const previous = qualifiedColumn(ctx, name, "value");
  const current = qualifiedColumn(ctx, base, c.measure.name);
  const change = `${current} - ${previous}`;
  const values = [previous, change, `(${change}) / NULLIF(${ctx.dialect.cast(previous, "double")}, 0)`];
  return c.outputs.map((o, k) => `${values[k]} AS ${ctx.dialect.quoteIdentifier(o)}`);
}
