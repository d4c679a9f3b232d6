import { calculationExpressions } from "./calculation-clause";
import { compareExpressions } from "./compare-clause";
import { fillExpressions } from "./fill-clause";
import { orderClause } from "./order-clause";
import type { ParameterValue } from "./parameters";
import type { QueryPlan } from "./plan";
import { scanQuery, type SharedClauses } from "./scan-query";
import { commonTableExpression, type SqlContext } from "./sql-context";

/**
 * The statement of a query with `compare` and/or calculations: its rows (two periods lined up,
 * or the scan, filled when asked) as WITH entries, the calculations as windows over them, then
 * the result columns by name, the per-group limit, the query's order and limit.
 */
export function analysisStatement(ctx: SqlContext, plan: QueryPlan, shared: SharedClauses): { sql: string; params: ParameterValue[] } {
  const q = (name: string) => ctx.dialect.quoteIdentifier(name);
  const expressions: string[] = [];
  let source: string;
  if (plan.compare) {
    const compared = compareExpressions(ctx, plan, plan.compare, shared);
    expressions.push(...compared.expressions);
    source = compared.result;
  } else {
    expressions.push(commonTableExpression(ctx, "q", scanQuery(ctx, plan.scan, shared)));
    source = "q";
    if (plan.fill) {
      const fill = fillExpressions(ctx, plan, plan.fill, source);
      expressions.push(...fill.expressions);
      source = fill.result;
    }
  }
  let where: string | undefined;
  if (plan.calculations) {
    const calculated = calculationExpressions(ctx, plan.calculations, source);
    expressions.push(calculated.expression);
    source = calculated.result;
    where = calculated.where;
  }
  const sql = [
    `${ctx.dialect.withKeyword(!!plan.fill)} ${expressions.join(",\n")}`,
    `SELECT ${plan.columns.map(q).join(", ")}`,
    `FROM ${q(source)}`,
    where,
    orderClause(ctx, plan.order),
    ctx.dialect.limit(plan.limit, plan.offset),
  ]
    .filter(Boolean)
    .join("\n");
  return { sql, params: ctx.params.values };
}
