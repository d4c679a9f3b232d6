import type { ScanPlan, ScanTimeColumn } from "./plan";
import { memberExpression, type SqlContext } from "./sql-context";
import { rangeCondition } from "./where-clause";

/** Clauses every scan of a query shares, written once so their parameters are bound once. */
export interface SharedClauses {
  from: string[];
  /** Access rules, then filters on dimensions. */
  where: string[];
  /** Filters on measures. */
  having: string[];
}

/** SELECT … GROUP BY … of one scan: key columns, measures, and the scan's own date ranges. */
export function scanQuery(ctx: SqlContext, scan: ScanPlan, shared: SharedClauses): string {
  const q = (name: string) => ctx.dialect.quoteIdentifier(name);
  const select = [
    ...scan.dimensions.map((d) => {
      const sql = memberExpression(ctx, d.member);
      const value = d.wallTime ? ctx.dialect.wallTime(sql, ctx.zone, d.span) : sql;
      return `${d.part ? ctx.dialect.timePart(d.part, value) : value} AS ${q(d.column)}`;
    }),
    ...scan.timeColumns.map((t) => `${timeBucket(ctx, t)} AS ${q(t.time.column)}`),
    ...scan.measures.map((m) => `${memberExpression(ctx, m.member)} AS ${q(m.column)}`),
  ];
  const where = [...shared.where, ...scan.ranges.map((r) => rangeCondition(ctx, memberExpression(ctx, r.member), r.range))];
  const keyCount = scan.dimensions.length + scan.timeColumns.length;
  const lines = [`SELECT ${select.join(",\n  ")}`, ...shared.from];
  if (where.length) lines.push(`WHERE ${where.join("\n  AND ")}`);
  if (keyCount) lines.push(`GROUP BY ${Array.from({ length: keyCount }, (_, i) => i + 1).join(", ")}`);
  if (scan.having && shared.having.length) lines.push(`HAVING ${shared.having.join("\n  AND ")}`);
  return lines.join("\n");
}

/** The bucket of a time column: its wall time (moved forward for a comparison), truncated. */
function timeBucket(ctx: SqlContext, t: ScanTimeColumn): string {
  const wall = ctx.dialect.wallTime(memberExpression(ctx, t.time.member), ctx.zone, t.span);
  const shifted = t.shift ? `${wall} + ${ctx.dialect.shiftInterval(t.shift.amount, t.shift.unit)}` : wall;
  return ctx.dialect.truncate(t.time.granularity, shifted);
}
