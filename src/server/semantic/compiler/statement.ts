import { analysisStatement } from "./analysis-statement";
import { comparisonClauses } from "./comparison-clause";
import type { Dialect } from "./dialect";
import { fillExpressions } from "./fill-clause";
import { fromClause } from "./from-clause";
import { orderClause } from "./order-clause";
import { QueryParameters, type ParameterValue } from "./parameters";
import type { QueryPlan } from "./plan";
import { scanQuery, type SharedClauses } from "./scan-query";
import { commonTableExpression, type SqlContext } from "./sql-context";
import { accessCondition, condition } from "./where-clause";

/**
 * Writes the SQL of a plan. Parameters are numbered in the order clauses are written: access
 * rules, filters, the query's scan, the fill grid, then each comparison's scan.
 */
export function writeStatement(plan: QueryPlan, dialect: Dialect): { sql: string; params: ParameterValue[] } {
  const params = new QueryParameters(dialect);
  const ctx: SqlContext = { dialect, params, zone: params.zone(plan.zone.name, plan.zone.utc), multiplied: plan.multiplied };

  const shared: SharedClauses = { from: fromClause(ctx, plan.from), where: plan.access.map((rule) => accessCondition(ctx, rule)), having: [] };
  for (const f of plan.filters) (f.having ? shared.having : shared.where).push(condition(ctx, f.condition));
  if (plan.compare || plan.calculations) return analysisStatement(ctx, plan, shared);

  const scan = scanQuery(ctx, plan.scan, shared);
  const limit = dialect.limit(plan.limit, plan.offset);
  if (!plan.fill && plan.comparisons.length === 0) {
    // The order's terms name result columns; where the engine cannot order by expressions over
    // an aggregate's alias, the scan's rows are ordered as a derived table's.
    const rows = plan.order.length && !dialect.ordersByAggregateAliases ? derivedTable(ctx, scan) : scan;
    return { sql: [rows, orderClause(ctx, plan.order), limit].filter(Boolean).join("\n"), params: params.values };
  }

  // The scan's rows become "q"; filled rows and comparisons are built on top of them, and the
  // result is read back as "base". The comparisons joined to it carry the same key column
  // names, so the order names its columns by source.
  const expressions = [commonTableExpression(ctx, "q", scan)];
  let rows = "q";
  if (plan.fill) {
    const fill = fillExpressions(ctx, plan, plan.fill, rows);
    expressions.push(...fill.expressions);
    rows = fill.result;
  }
  const base = "base";
  const comparisons = comparisonClauses(ctx, plan, shared, base);
  expressions.push(...comparisons.expressions);
  const q = (name: string) => dialect.quoteIdentifier(name);
  const sql = [
    `${dialect.withKeyword(!!plan.fill)} ${expressions.join(",\n")}`,
    `SELECT ${[`${q(base)}.*`, ...comparisons.select].join(", ")}`,
    `FROM ${q(rows)} AS ${q(base)}`,
    ...comparisons.joins,
    orderClause(ctx, plan.order, base),
    limit,
  ]
    .filter(Boolean)
    .join("\n");
  return { sql, params: params.values };
}

/** `SELECT * FROM (<scan>) AS "q"`, the scan indented. */
function derivedTable(ctx: SqlContext, scan: string): string {
  const indented = scan
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
  return `SELECT * FROM (\n${indented}\n) AS ${ctx.dialect.quoteIdentifier("q")}`;
}
