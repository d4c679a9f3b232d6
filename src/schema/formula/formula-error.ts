import type { FormulaType } from "./checker";

/** What kind of mistake a formula holds; the query validator maps each to a problem code. */
export type FormulaErrorKind = "syntax" | "limit" | "unknown_member" | "unknown_function" | "type" | "mixing";

/** What a token that does not fit is, as a problem names it (`tokenText` is the token as written). */
export type FormulaTokenKind = "number" | "text" | "name" | "keyword" | "symbol" | "end";
export type FoundToken = { token: FormulaTokenKind; tokenText: string };
type Empty = Record<never, never>;

/**
 * Every problem the tokenizer, the parser and the checker tell, by a stable code, with the
 * parameters its sentence names. A key ending in `Type` (or `types`) holds a `FormulaType`;
 * `token`/`tokenText` describe the token found. The app tells each in its viewer's language
 * (report-formula-messages.ts); the API answers with the English `detail`.
 */
export interface FormulaProblemParams {
  numberOutOfRange: { number: string; max: number };
  numberBeforeName: Empty;
  doubleQuotedText: Empty;
  unexpectedCharacter: { character: string };
  unknownEscape: Empty;
  textEndsAtLineEnd: Empty;
  controlCharacterInText: Empty;
  unclosedText: Empty;
  tooLong: { max: number };
  empty: Empty;
  operatorExpected: FoundToken;
  chainedComparison: Empty;
  nullNotValue: Empty;
  valueExpected: FoundToken;
  endsEarly: Empty;
  memberNameAfterDot: Empty;
  tooDeep: { max: number };
  tooManyParts: { max: number };
  nullExpectedAfterIs: FoundToken;
  parenthesisExpectedAfterIn: FoundToken;
  inListNotClosed: FoundToken;
  parenthesisNotClosed: FoundToken & { at: number };
  callNotClosed: FoundToken & { name: string };
  noMembers: Empty;
  timeResult: Empty;
  aggregateNotNumber: { foundType: FormulaType };
  compareTypes: { operator: string; leftType: FormulaType; rightType: FormulaType };
  orderBooleans: { operator: string };
  inListLiterals: Empty;
  inListTypes: { leftType: FormulaType; rightType: FormulaType };
  whereInScalar: { name: string };
  measureTakesNoArguments: { name: string };
  unknownFunction: { name: string; suggestion?: string };
  missingFilteredMeasure: { name: string };
  dimensionFiltered: { name: string };
  whereNamesMeasures: Empty;
  oneArgument: { name: string };
  countArguments: Empty;
  nestedAggregates: { name: string };
  argumentCount: { name: string; count: number };
  argumentRange: { name: string; min: number; max: number };
  functionTypes: { name: string; types: FormulaType[] };
  functionMixesTypes: { name: string; firstType: FormulaType; otherType: FormulaType };
  roundDigits: { max: number };
  unknownMember: { name: string; suggestion?: string };
  negateNeedsNumber: { foundType: FormulaType };
  notNeedsBoolean: { foundType: FormulaType };
  arithmeticNeedsNumber: { operator: string; foundType: FormulaType };
  logicalNeedsBoolean: { operator: string; foundType: FormulaType };
  aggregateNeedsNumber: { name: string; foundType: FormulaType };
  whereNeedsBoolean: { foundType: FormulaType };
  rowBesideAggregate: Empty;
}

/** Every problem code, in the order the tokenizer, the parser and the checker meet them. */
export const FORMULA_PROBLEM_CODES = [
  "numberOutOfRange",
  "numberBeforeName",
  "doubleQuotedText",
  "unexpectedCharacter",
  "unknownEscape",
  "textEndsAtLineEnd",
  "controlCharacterInText",
  "unclosedText",
  "tooLong",
  "empty",
  "operatorExpected",
  "chainedComparison",
  "nullNotValue",
  "valueExpected",
  "endsEarly",
  "memberNameAfterDot",
  "tooDeep",
  "tooManyParts",
  "nullExpectedAfterIs",
  "parenthesisExpectedAfterIn",
  "inListNotClosed",
  "parenthesisNotClosed",
  "callNotClosed",
  "noMembers",
  "timeResult",
  "aggregateNotNumber",
  "compareTypes",
  "orderBooleans",
  "inListLiterals",
  "inListTypes",
  "whereInScalar",
  "measureTakesNoArguments",
  "unknownFunction",
  "missingFilteredMeasure",
  "dimensionFiltered",
  "whereNamesMeasures",
  "oneArgument",
  "countArguments",
  "nestedAggregates",
  "argumentCount",
  "argumentRange",
  "functionTypes",
  "functionMixesTypes",
  "roundDigits",
  "unknownMember",
  "negateNeedsNumber",
  "notNeedsBoolean",
  "arithmeticNeedsNumber",
  "logicalNeedsBoolean",
  "aggregateNeedsNumber",
  "whereNeedsBoolean",
  "rowBesideAggregate",
] as const satisfies readonly (keyof FormulaProblemParams)[];

export type FormulaProblemCode = (typeof FORMULA_PROBLEM_CODES)[number];

/**
 * A problem by its code and the parameters of its sentence. (Over the interface's keys, so a
 * code missing from `FORMULA_PROBLEM_CODES` does not compile in `FormulaError`.)
 */
export type FormulaProblem = { [C in keyof FormulaProblemParams]: { code: C; params: FormulaProblemParams[C] } }[keyof FormulaProblemParams];

/**
 * A formula refused by the tokenizer, the parser or the checker. `position` is the 0-based
 * offset in the formula text of the character the problem starts at; `detail` tells it in
 * English (the API's words), `code` and `params` let a client tell it in its own language.
 */
export class FormulaError extends Error {
  readonly code: FormulaProblemCode;
  readonly params: FormulaProblem["params"];

  constructor(
    readonly kind: FormulaErrorKind,
    readonly position: number,
    readonly detail: string,
    readonly problem: FormulaProblem,
  ) {
    super(`${detail} (at character ${position + 1})`);
    this.name = "FormulaError";
    this.code = problem.code;
    this.params = problem.params;
  }
}
