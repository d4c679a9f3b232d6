import { SQL_REFERENCE, type Cube } from "../data-model";
import type { QueryPlan } from "./plan";
import type { SqlContext } from "./sql-context";

/** FROM the root cube and one LEFT JOIN line per joined cube, each aliased by its cube name. */
export function fromClause(ctx: SqlContext, from: QueryPlan["from"]): string[] {
  const alias = (cube: string) => ctx.dialect.quoteIdentifier(cube);
  const lines = [`FROM ${tableSql(ctx, from.root)} AS ${alias(from.root.name)}`];
  for (const { parent, cube, join } of from.joins) {
    const on = join.sql.replace(SQL_REFERENCE, (_t, head: string) => (head === "CUBE" ? alias(parent.name) : alias(head)));
    lines.push(`LEFT JOIN ${tableSql(ctx, cube)} AS ${alias(cube.name)} ON ${on}`);
  }
  return lines;
}

function tableSql(ctx: SqlContext, cube: Cube): string {
  if (cube.sql !== undefined) return `(${cube.sql})`;
  return cube
    .sqlTable!.split(".")
    .map((part) => ctx.dialect.quoteIdentifier(part))
    .join(".");
}
