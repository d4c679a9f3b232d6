import type { ResolvedMember } from "../member-resolution";
import type { Dialect, ZoneBinding } from "./dialect";
import { calculatedMemberSql, isCalculatedMember } from "./calculated-fields";
import { memberSql } from "./member-sql";
import type { QueryParameters } from "./parameters";

/** What every clause writer needs: the engine, the statement's parameters and the query zone. */
export interface SqlContext {
  dialect: Dialect;
  params: QueryParameters;
  zone: ZoneBinding;
  /** Cubes whose rows a to-many join repeats in this query. */
  multiplied: ReadonlySet<string>;
}

/** SQL of a member as this query reads it (counts of multiplied cubes go by primary key). */
export function memberExpression(ctx: SqlContext, member: ResolvedMember): string {
  if (isCalculatedMember(member)) return calculatedMemberSql(ctx, member);
  return memberSql(ctx.dialect, member.cube, member.def, ctx.multiplied.has(member.cube.name));
}

/** `"table"."column"`. */
export function qualifiedColumn(ctx: SqlContext, table: string, column: string): string {
  return `${ctx.dialect.quoteIdentifier(table)}.${ctx.dialect.quoteIdentifier(column)}`;
}

/** A WITH entry, its body indented under the name. */
export function commonTableExpression(ctx: SqlContext, name: string, body: string): string {
  const indented = body
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
  return `${ctx.dialect.quoteIdentifier(name)} AS (\n${indented}\n)`;
}
