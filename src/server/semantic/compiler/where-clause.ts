import type { ResolvedRange } from "../date-range";
import { calculatedMemberSql, isCalculatedMember } from "./calculated-fields";
import { memberSql } from "./member-sql";
import type { AccessRule, Condition, FilterOperand, MemberTest } from "./filter-plan";
import type { SqlContext } from "./sql-context";

/** One WHERE term for the rows an access rule lets the viewer see. */
export function accessCondition(ctx: SqlContext, rule: AccessRule): string {
  if (rule.kind === "none") return "FALSE";
  const alternatives = rule.alternatives.map((alt) => (alt.length === 0 ? "TRUE" : alt.map((c) => condition(ctx, c)).join(" AND ")));
  return alternatives.length === 1 ? `(${alternatives[0]})` : `(${alternatives.map((a) => `(${a})`).join(" OR ")})`;
}

export function condition(ctx: SqlContext, c: Condition): string {
  switch (c.kind) {
    case "false":
      return "FALSE";
    case "or":
      return `(${c.conditions.map((d) => condition(ctx, d)).join(" OR ")})`;
    case "and":
      return `(${c.conditions.map((d) => condition(ctx, d)).join(" AND ")})`;
    case "member":
      // A calculated field's SQL is its formula (its members' counts by primary key as the query's are).
      return memberCondition(
        ctx,
        isCalculatedMember(c.member) ? calculatedMemberSql(ctx, c.member) : memberSql(ctx.dialect, c.member.cube, c.member.def, c.multiplied),
        c.test,
      );
  }
}

/**
 * Time bounds are naive UTC TIMESTAMPs compared with the raw column: a TIMESTAMP column
 * compares as is (and can skip row groups by their min/max); for a TIMESTAMPTZ column the
 * database casts the constant once (session zone UTC), never the column.
 */
export function rangeCondition(ctx: SqlContext, x: string, range: ResolvedRange, negate = false): string {
  const from = ctx.params.instant(range.from);
  const to = ctx.params.instant(range.to);
  return negate ? `(${x} < ${from} OR ${x} >= ${to})` : `(${x} >= ${from} AND ${x} < ${to})`;
}

function memberCondition(ctx: SqlContext, x: string, t: MemberTest): string {
  const bind = (operand: FilterOperand) => bindOperand(ctx, operand);
  switch (t.test) {
    case "in": {
      if (t.operands.length === 1) {
        return t.negate ? `(${x} <> ${bind(t.operands[0]!)} OR ${x} IS NULL)` : `${x} = ${bind(t.operands[0]!)}`;
      }
      const list = t.operands.map(bind).join(", ");
      return t.negate ? `(${x} NOT IN (${list}) OR ${x} IS NULL)` : `${x} IN (${list})`;
    }
    case "compare":
      return `${x} ${t.comparator} ${bind(t.operand)}`;
    case "between": {
      // Bounds bound in order (low, then high), so the parameters read as the filter's values.
      const low = bind(t.low);
      const high = bind(t.high);
      return t.negate ? `(${x} NOT BETWEEN ${low} AND ${high} OR ${x} IS NULL)` : `${x} BETWEEN ${low} AND ${high}`;
    }
    case "match": {
      const text = ctx.dialect.cast(x, "varchar");
      const parts = t.values.map((v) => ctx.dialect.like(text, ctx.params.add(ctx.dialect.likePattern(v, t.anchor)), t.negate));
      return t.negate ? `((${parts.join(" AND ")}) OR ${x} IS NULL)` : `(${parts.join(" OR ")})`;
    }
    case "present":
      return t.present ? `${x} IS NOT NULL` : `${x} IS NULL`;
    case "range":
      return rangeCondition(ctx, x, t.range, t.negate);
  }
}

function bindOperand(ctx: SqlContext, operand: FilterOperand): string {
  switch (operand.kind) {
    case "instant":
      return ctx.params.instant(operand.instant);
    case "number":
      return ctx.dialect.cast(ctx.params.add(operand.value), "number");
    case "boolean":
      return ctx.dialect.cast(ctx.params.add(operand.value), "boolean");
    case "text":
      return ctx.params.add(operand.value);
  }
}
