/** Where a node sits in the formula text: 0-based offsets, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

export type ArithmeticOperator = "+" | "-" | "*" | "/";
export type ComparisonOperator = "=" | "!=" | "<" | "<=" | ">" | ">=";
export type LogicalOperator = "and" | "or";

/** A parsed formula: what was written, with positions, before any member is looked up. */
export type FormulaNode =
  | { kind: "number"; value: number; span: Span }
  | { kind: "string"; value: string; span: Span }
  | { kind: "boolean"; value: boolean; span: Span }
  /** A member, bare (`revenue`) or qualified (`sales.revenue`). */
  | { kind: "member"; name: string; span: Span }
  | { kind: "negate"; operand: FormulaNode; span: Span }
  | { kind: "not"; operand: FormulaNode; span: Span }
  | { kind: "arithmetic"; operator: ArithmeticOperator; left: FormulaNode; right: FormulaNode; span: Span }
  | { kind: "compare"; operator: ComparisonOperator; left: FormulaNode; right: FormulaNode; span: Span }
  | { kind: "logical"; operator: LogicalOperator; left: FormulaNode; right: FormulaNode; span: Span }
  | { kind: "isNull"; negate: boolean; operand: FormulaNode; span: Span }
  | { kind: "in"; negate: boolean; operand: FormulaNode; values: FormulaNode[]; span: Span }
  /**
   * `name(args)`, `name(arg where condition)` or `name(where condition)`: a function, an
   * aggregate, or a measure over the rows meeting a condition; the checker tells which.
   */
  | { kind: "call"; name: string; nameSpan: Span; args: FormulaNode[]; where?: FormulaNode; span: Span };
