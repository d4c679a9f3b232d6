/** What kind of mistake a formula holds; the query validator maps each to a problem code. */
export type FormulaErrorKind = "syntax" | "limit" | "unknown_member" | "unknown_function" | "type" | "mixing";

/**
 * A formula refused by the tokenizer, the parser or the checker. `position` is the 0-based
 * offset in the formula text of the character the problem starts at.
 */
export class FormulaError extends Error {
  constructor(
    readonly kind: FormulaErrorKind,
    readonly position: number,
    readonly detail: string,
  ) {
    super(`${detail} (at character ${position + 1})`);
    this.name = "FormulaError";
  }
}
