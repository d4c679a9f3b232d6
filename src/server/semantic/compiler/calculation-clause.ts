import type { CalculationPlan, PlannedCalculation } from "./calculations";
import { commonTableExpression, type SqlContext } from "./sql-context";

/** Name of the row number a per-group limit keeps rows by; never a result column. */
const GROUP_ROW = "group_row";

/**
 * The WITH entry "calculated": the rows of `source` with each calculation as a window over
 * them (and the row number within its group when there is a per-group limit), and the WHERE
 * that keeps the top rows of each group. Window functions see every aggregated row, so a
 * percent of total is of all the viewer's rows, whatever the final limit keeps.
 */
export function calculationExpressions(ctx: SqlContext, plan: CalculationPlan, source: string): { expression: string; result: string; where?: string } {
  const q = (name: string) => ctx.dialect.quoteIdentifier(name);
  const select = [`${q(source)}.*`, ...plan.calculations.map((c) => `${calculationSql(ctx, c)} AS ${q(c.name)}`)];
  const g = plan.groupLimit;
  if (g) {
    const order = g.order.map(([column, direction]) => ctx.dialect.orderTerm(q(column), direction)).join(", ");
    select.push(`row_number() OVER (${partition(ctx, g.within)}ORDER BY ${order}) AS ${q(GROUP_ROW)}`);
  }
  return {
    expression: commonTableExpression(ctx, "calculated", `SELECT ${select.join(",\n  ")}\nFROM ${q(source)}`),
    result: "calculated",
    // The limit is a validated integer, so writing it inline carries no outside text.
    ...(g ? { where: `WHERE ${q(GROUP_ROW)} <= ${g.limit}` } : {}),
  };
}

function partition(ctx: SqlContext, within: string[]): string {
  return within.length ? `PARTITION BY ${within.map((w) => ctx.dialect.quoteIdentifier(w)).join(", ")} ` : "";
}

function calculationSql(ctx: SqlContext, c: PlannedCalculation): string {
  const { dialect } = ctx;
  const value = dialect.quoteIdentifier(c.column);
  const over = partition(ctx, c.within);
  switch (c.type) {
    case "percentOfTotal": {
      const number = dialect.cast(value, "double");
      return `${number} / NULLIF(sum(${number}) OVER (${over.trimEnd()}), 0)`;
    }
    case "runningTotal": {
      const order = c.along.map((k) => dialect.orderTerm(dialect.quoteIdentifier(k), "asc")).join(", ");
      return dialect.cast(`sum(${value}) OVER (${over}ORDER BY ${order} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`, "double");
    }
    case "rank":
      return dialect.cast(`rank() OVER (${over}ORDER BY ${dialect.orderTerm(value, c.direction)})`, "integer");
  }
}
