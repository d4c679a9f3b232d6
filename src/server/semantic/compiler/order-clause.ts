import type { OrderDirection } from "../../../schema/semantic-query";
import type { SqlContext } from "./sql-context";

/**
 * ORDER BY result columns; `table` qualifies them when the statement reads them from a named
 * row source (the WITH form, whose joined comparisons bring columns of their own). Empty
 * without an order.
 */
export function orderClause(ctx: SqlContext, order: [string, OrderDirection][], table?: string): string {
  if (!order.length) return "";
  const q = (name: string) => ctx.dialect.quoteIdentifier(name);
  const column = (name: string) => (table ? `${q(table)}.${q(name)}` : q(name));
  return `ORDER BY ${order.map(([name, direction]) => ctx.dialect.orderTerm(column(name), direction)).join(", ")}`;
}
