import type { Dialect } from "../compiler/dialect";
import type { CheckedNode } from "../../../schema/formula/checker";

/** What the emitter needs from the statement being written. */
export interface FormulaEmitContext<M> {
  dialect: Dialect;
  /** Binds a literal of the formula as a parameter and returns its placeholder. */
  bind(value: string | number | boolean): string;
  /** SQL of a member: a dimension's row value or a measure's aggregate. */
  member(member: M): string;
  /** SQL of a measure over the rows meeting `condition` (SQL of a checked condition). */
  filteredMeasure(member: M, condition: string): string;
}

const COMPARISON_SQL = { "=": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=" } as const;

/**
 * SQL of a checked formula. Nothing of the formula's text reaches the SQL: literals are bound
 * parameters (cast to their type), members come from the context (model SQL, quoted
 * identifiers), operators and function names from fixed tables. Every compound part is
 * parenthesized, so the formula's precedence is the SQL's; division by zero gives null.
 */
export function emitFormula<M>(node: CheckedNode<M>, ctx: FormulaEmitContext<M>): string {
  const emit = (n: CheckedNode<M>) => emitFormula(n, ctx);
  const { dialect } = ctx;
  switch (node.kind) {
    case "literal":
      return literal(node.value, ctx);
    case "member":
      return ctx.member(node.member);
    case "negate":
      return `(- ${emit(node.operand)})`;
    case "not":
      return `(NOT ${emit(node.operand)})`;
    case "arithmetic":
      // Postgres divides integers (counts) as integers: the dividend is read as a double.
      if (node.operator === "/") return `(${dialect.cast(emit(node.left), "double")} / NULLIF(${emit(node.right)}, 0))`;
      return `(${emit(node.left)} ${node.operator} ${emit(node.right)})`;
    case "compare":
      return `(${emit(node.left)} ${COMPARISON_SQL[node.operator]} ${emit(node.right)})`;
    case "logical":
      return `(${emit(node.left)} ${node.operator === "and" ? "AND" : "OR"} ${emit(node.right)})`;
    case "isNull":
      return `(${emit(node.operand)} ${node.negate ? "IS NOT NULL" : "IS NULL"})`;
    case "in":
      return `(${emit(node.operand)} ${node.negate ? "NOT IN" : "IN"} (${node.values.map(emit).join(", ")}))`;
    case "function":
      if (node.name === "round" && node.args.length === 2) {
        // round(numeric, integer) is the form both engines have; the digits are checked literals.
        const value = dialect.cast(emit(node.args[0]!), "number");
        const digits = node.args[1]!;
        return `round(${value}, ${dialect.cast(digits.kind === "literal" ? ctx.bind(digits.value) : emit(digits), "integer")})`;
      }
      return `${node.name}(${node.args.map(emit).join(", ")})`;
    case "aggregate": {
      const value = node.where ? `CASE WHEN ${emit(node.where)} THEN ${emit(node.argument)} END` : emit(node.argument);
      if (node.name === "count_distinct") return `count(DISTINCT ${value})`;
      return `${node.name}(${value})`;
    }
    case "filteredMeasure":
      return ctx.filteredMeasure(node.member, emit(node.where));
  }
}

function literal<M>(value: string | number | boolean, ctx: FormulaEmitContext<M>): string {
  const placeholder = ctx.bind(value);
  return ctx.dialect.cast(placeholder, typeof value === "number" ? "number" : typeof value === "boolean" ? "boolean" : "varchar");
}
