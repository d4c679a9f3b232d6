import type { ArithmeticOperator, ComparisonOperator, FormulaNode, LogicalOperator, Span } from "./ast";
import { FormulaError, type FormulaProblem } from "./formula-error";
import { didYouMean, nearestName } from "./suggestions";

/** What a formula (or a part of it) holds. */
export type FormulaType = "number" | "string" | "boolean" | "time";

/**
 * How many values a part of a formula has: one in all (a literal), one per row (dimensions),
 * or one per group of rows (measures and aggregates).
 */
export type FormulaLevel = "constant" | "row" | "aggregate";

/** A member a formula may name, as the checker needs to know it. */
export interface ScopeMember<M> {
  handle: M;
  kind: "measure" | "dimension";
  type: FormulaType;
}

/** The members the viewer may name in a formula. */
export interface FormulaScope<M> {
  /** A member by the name written, bare or qualified; undefined when the viewer has none by that name. */
  member(name: string): ScopeMember<M> | undefined;
  /** Names the viewer may write, for "did you mean". */
  names(): Iterable<string>;
}

export const scalarFunctions = ["abs", "ceil", "floor", "round", "coalesce", "nullif", "greatest", "least", "lower", "upper"] as const;
export type ScalarFunction = (typeof scalarFunctions)[number];
export const aggregateFunctions = ["sum", "avg", "min", "max", "count", "count_distinct"] as const;
export type AggregateFunction = (typeof aggregateFunctions)[number];

/** Most decimal places `round(x, digits)` takes. */
export const MAX_ROUND_DIGITS = 10;

type Typed = { type: FormulaType; level: FormulaLevel };

/** A formula after checking: every member resolved, every part typed. */
export type CheckedNode<M> = Typed &
  (
    | { kind: "literal"; value: number | string | boolean }
    | { kind: "member"; member: M }
    | { kind: "negate" | "not"; operand: CheckedNode<M> }
    | { kind: "arithmetic"; operator: ArithmeticOperator; left: CheckedNode<M>; right: CheckedNode<M> }
    | { kind: "compare"; operator: ComparisonOperator; left: CheckedNode<M>; right: CheckedNode<M> }
    | { kind: "logical"; operator: LogicalOperator; left: CheckedNode<M>; right: CheckedNode<M> }
    | { kind: "isNull"; negate: boolean; operand: CheckedNode<M> }
    | { kind: "in"; negate: boolean; operand: CheckedNode<M>; values: CheckedNode<M>[] }
    | { kind: "function"; name: ScalarFunction; args: CheckedNode<M>[] }
    | { kind: "aggregate"; name: AggregateFunction; argument: CheckedNode<M>; where?: CheckedNode<M> }
    /** A measure over the rows meeting a condition: `count(where status = 'returned')`. */
    | { kind: "filteredMeasure"; member: M; where: CheckedNode<M> }
  );

/** An aggregate of the formula over dimensions, and the members it adds up (for fan-out checks). */
export interface FormulaAggregate<M> {
  name: AggregateFunction;
  members: M[];
  position: number;
}

export interface CheckedFormula<M> {
  root: CheckedNode<M>;
  type: FormulaType;
  /** `aggregate`: a measure (one value per group); `row`: a dimension (one value per row). */
  level: "row" | "aggregate";
  /** Every member named, once each, in order of appearance. */
  members: M[];
  aggregates: FormulaAggregate<M>[];
}

const TYPE_NAMES: Record<FormulaType, string> = { number: "a number", string: "text", boolean: "true/false", time: "a time" };

/**
 * Types a parsed formula against the members the viewer may see. Throws `FormulaError` at the
 * position of the first unknown member or function, type error, or mixing of row values with
 * aggregates.
 */
export function checkFormula<M>(node: FormulaNode, scope: FormulaScope<M>): CheckedFormula<M> {
  const members: M[] = [];
  const aggregates: FormulaAggregate<M>[] = [];
  const root = new Checker(scope, members, aggregates).check(node);
  // Also `sum(1)`: without a member the formula has no rows to read (no view, no joins).
  if (members.length === 0) {
    throw new FormulaError("type", 0, "a formula names at least one member (a measure or a dimension)", { code: "noMembers", params: {} });
  }
  if (root.type === "time") throw new FormulaError("type", 0, "a formula gives a number, text or true/false, not a time", { code: "timeResult", params: {} });
  if (root.level === "aggregate" && root.type !== "number") {
    throw new FormulaError("type", 0, `a formula over measures gives a number; this one gives ${TYPE_NAMES[root.type]}`, {
      code: "aggregateNotNumber",
      params: { foundType: root.type },
    });
  }
  // A formula naming a member reads rows or groups: only literals alone are constant.
  return { root, type: root.type, level: root.level === "aggregate" ? "aggregate" : "row", members, aggregates };
}

class Checker<M> {
  constructor(
    private readonly scope: FormulaScope<M>,
    private readonly members: M[],
    private readonly aggregates: FormulaAggregate<M>[],
  ) {}

  check(node: FormulaNode): CheckedNode<M> {
    switch (node.kind) {
      case "number":
        return { kind: "literal", value: node.value, type: "number", level: "constant" };
      case "string":
        return { kind: "literal", value: node.value, type: "string", level: "constant" };
      case "boolean":
        return { kind: "literal", value: node.value, type: "boolean", level: "constant" };
      case "member": {
        const m = this.member(node.name, node.span);
        return { kind: "member", member: m.handle, type: m.type, level: m.kind === "measure" ? "aggregate" : "row" };
      }
      case "negate": {
        const operand = this.expect(node.operand, "number", "a minus sign", (foundType) => ({ code: "negateNeedsNumber", params: { foundType } }));
        return { kind: "negate", operand, type: "number", level: operand.level };
      }
      case "not": {
        const operand = this.expect(node.operand, "boolean", "not", (foundType) => ({ code: "notNeedsBoolean", params: { foundType } }));
        return { kind: "not", operand, type: "boolean", level: operand.level };
      }
      case "arithmetic": {
        const problem = (foundType: FormulaType): FormulaProblem => ({ code: "arithmeticNeedsNumber", params: { operator: node.operator, foundType } });
        const left = this.expect(node.left, "number", `"${node.operator}"`, problem);
        const right = this.expect(node.right, "number", `"${node.operator}"`, problem);
        return { kind: "arithmetic", operator: node.operator, left, right, type: "number", level: this.level([node.left, node.right], [left, right]) };
      }
      case "logical": {
        const problem = (foundType: FormulaType): FormulaProblem => ({ code: "logicalNeedsBoolean", params: { operator: node.operator, foundType } });
        const left = this.expect(node.left, "boolean", node.operator, problem);
        const right = this.expect(node.right, "boolean", node.operator, problem);
        return { kind: "logical", operator: node.operator, left, right, type: "boolean", level: this.level([node.left, node.right], [left, right]) };
      }
      case "compare":
        return this.compare(node);
      case "isNull": {
        const operand = this.check(node.operand);
        return { kind: "isNull", negate: node.negate, operand, type: "boolean", level: operand.level };
      }
      case "in":
        return this.in(node);
      case "call":
        return this.call(node);
    }
  }

  private compare(node: FormulaNode & { kind: "compare" }): CheckedNode<M> {
    const left = this.check(node.left);
    const right = this.check(node.right);
    if (left.type !== right.type) {
      throw new FormulaError("type", node.right.span.start, `"${node.operator}" compares ${TYPE_NAMES[left.type]} with ${TYPE_NAMES[right.type]}`, {
        code: "compareTypes",
        params: { operator: node.operator, leftType: left.type, rightType: right.type },
      });
    }
    if (left.type === "boolean" && node.operator !== "=" && node.operator !== "!=") {
      throw new FormulaError("type", node.left.span.start, `"${node.operator}" does not order true/false; use = or !=`, {
        code: "orderBooleans",
        params: { operator: node.operator },
      });
    }
    return { kind: "compare", operator: node.operator, left, right, type: "boolean", level: this.level([node.left, node.right], [left, right]) };
  }

  private in(node: FormulaNode & { kind: "in" }): CheckedNode<M> {
    const operand = this.check(node.operand);
    const values = node.values.map((v) => {
      if (v.kind !== "number" && v.kind !== "string" && v.kind !== "boolean") {
        throw new FormulaError("type", v.span.start, "the list after in holds numbers, text or true/false written out", { code: "inListLiterals", params: {} });
      }
      const checked = this.check(v);
      if (checked.type !== operand.type) {
        throw new FormulaError("type", v.span.start, `in compares ${TYPE_NAMES[operand.type]} with ${TYPE_NAMES[checked.type]}`, {
          code: "inListTypes",
          params: { leftType: operand.type, rightType: checked.type },
        });
      }
      return checked;
    });
    return { kind: "in", negate: node.negate, operand, values, type: "boolean", level: operand.level };
  }

  private call(node: FormulaNode & { kind: "call" }): CheckedNode<M> {
    const lower = node.name.toLowerCase();
    if (node.args.length === 0 && node.where) return this.filteredMeasure(node, node.where);
    if ((scalarFunctions as readonly string[]).includes(lower)) {
      if (node.where) {
        throw new FormulaError("syntax", node.where.span.start, `${lower}() takes no where; where filters measures and aggregates`, {
          code: "whereInScalar",
          params: { name: lower },
        });
      }
      return this.scalar(lower as ScalarFunction, node);
    }
    if ((aggregateFunctions as readonly string[]).includes(lower)) return this.aggregate(lower as AggregateFunction, node);
    const asMember = this.scope.member(node.name);
    if (asMember?.kind === "measure") {
      throw new FormulaError("syntax", node.nameSpan.end, `${node.name} is a measure: it takes no arguments; filter it with ${node.name}(where …)`, {
        code: "measureTakesNoArguments",
        params: { name: node.name },
      });
    }
    const suggestion = nearestName(node.name, [...scalarFunctions, ...aggregateFunctions]);
    throw new FormulaError("unknown_function", node.nameSpan.start, `unknown function "${node.name}"${didYouMean(suggestion)}`, {
      code: "unknownFunction",
      params: { name: node.name, ...(suggestion === undefined ? {} : { suggestion }) },
    });
  }

  private filteredMeasure(node: FormulaNode & { kind: "call" }, where: FormulaNode): CheckedNode<M> {
    const m = this.scope.member(node.name);
    if (!m && (aggregateFunctions as readonly string[]).includes(node.name.toLowerCase())) {
      throw new FormulaError(
        "unknown_member",
        node.nameSpan.start,
        `${node.name}(where …) filters the measure ${node.name}, which this view does not have; ${node.name}(x where …) aggregates a dimension x`,
        { code: "missingFilteredMeasure", params: { name: node.name } },
      );
    }
    const measure = this.member(node.name, node.nameSpan);
    if (measure.kind !== "measure") {
      throw new FormulaError("type", node.nameSpan.start, `${node.name} is a dimension; only a measure is filtered with (where …)`, {
        code: "dimensionFiltered",
        params: { name: node.name },
      });
    }
    return { kind: "filteredMeasure", member: measure.handle, where: this.condition(where), type: "number", level: "aggregate" };
  }

  private condition(where: FormulaNode): CheckedNode<M> {
    const checked = this.expect(where, "boolean", "where", (foundType) => ({ code: "whereNeedsBoolean", params: { foundType } }));
    if (checked.level === "aggregate") {
      throw new FormulaError("mixing", this.firstAt(where, "aggregate"), "a where condition is read row by row: it names dimensions, not measures", {
        code: "whereNamesMeasures",
        params: {},
      });
    }
    return checked;
  }

  private aggregate(name: AggregateFunction, node: FormulaNode & { kind: "call" }): CheckedNode<M> {
    if (node.args.length !== 1) {
      throw new FormulaError(
        "syntax",
        node.nameSpan.end,
        `${name}() takes one argument${name === "count" ? " (or a measure filtered: count(where …))" : ""}`,
        name === "count" ? { code: "countArguments", params: {} } : { code: "oneArgument", params: { name } },
      );
    }
    const argNode = node.args[0]!;
    const numeric = name === "sum" || name === "avg" || name === "min" || name === "max";
    const argument = numeric
      ? this.expect(argNode, "number", `${name}()`, (foundType) => ({ code: "aggregateNeedsNumber", params: { name, foundType } }))
      : this.check(argNode);
    if (argument.level === "aggregate") {
      throw new FormulaError("mixing", this.firstAt(argNode, "aggregate"), `aggregates do not nest: ${name}() adds up dimensions, row by row`, {
        code: "nestedAggregates",
        params: { name },
      });
    }
    const where = node.where ? this.condition(node.where) : undefined;
    this.aggregates.push({ name, members: checkedMembers(argument), position: node.span.start });
    return { kind: "aggregate", name, argument, ...(where ? { where } : {}), type: "number", level: "aggregate" };
  }

  private scalar(name: ScalarFunction, node: FormulaNode & { kind: "call" }): CheckedNode<M> {
    const args = node.args.map((a) => this.check(a));
    const level = this.level(node.args, args);
    const arity = (min: number, max: number) => {
      if (args.length < min || args.length > max) {
        const count = min === max ? `${min}` : `${min} or ${max}`;
        const problem: FormulaProblem =
          min !== max
            ? { code: "argumentRange", params: { name, min, max } }
            : min === 1
              ? { code: "oneArgument", params: { name } }
              : { code: "argumentCount", params: { name, count: min } };
        throw new FormulaError("syntax", node.nameSpan.end, `${name}() takes ${count} argument${min === 1 && max === 1 ? "" : "s"}`, problem);
      }
    };
    const sameType = (types: FormulaType[]) => {
      const first = args[0]!.type;
      if (!types.includes(first)) {
        throw new FormulaError("type", node.args[0]!.span.start, `${name}() takes ${types.map((t) => TYPE_NAMES[t]).join(" or ")}`, {
          code: "functionTypes",
          params: { name, types },
        });
      }
      args.forEach((a, i) => {
        if (a.type !== first) {
          throw new FormulaError("type", node.args[i]!.span.start, `${name}() mixes ${TYPE_NAMES[first]} with ${TYPE_NAMES[a.type]}`, {
            code: "functionMixesTypes",
            params: { name, firstType: first, otherType: a.type },
          });
        }
      });
      return first;
    };
    switch (name) {
      case "abs":
      case "ceil":
      case "floor":
        arity(1, 1);
        return { kind: "function", name, args, type: sameType(["number"]), level };
      case "round": {
        arity(1, 2);
        sameType(["number"]);
        const digits = node.args[1];
        if (digits && (digits.kind !== "number" || !Number.isInteger(digits.value) || digits.value > MAX_ROUND_DIGITS)) {
          throw new FormulaError("type", digits.span.start, `round(x, digits): digits is a whole number from 0 to ${MAX_ROUND_DIGITS}`, {
            code: "roundDigits",
            params: { max: MAX_ROUND_DIGITS },
          });
        }
        return { kind: "function", name, args, type: "number", level };
      }
      case "coalesce":
        arity(2, 16);
        return { kind: "function", name, args, type: sameType(["number", "string", "boolean", "time"]), level };
      case "nullif":
        arity(2, 2);
        return { kind: "function", name, args, type: sameType(["number", "string", "boolean", "time"]), level };
      case "greatest":
      case "least":
        arity(2, 16);
        return { kind: "function", name, args, type: sameType(["number", "string", "time"]), level };
      case "lower":
      case "upper":
        arity(1, 1);
        return { kind: "function", name, args, type: sameType(["string"]), level };
    }
  }

  private member(name: string, span: Span): ScopeMember<M> {
    const m = this.scope.member(name);
    if (!m) {
      const known = [...this.scope.names()].filter((n) => n.includes(".") === name.includes("."));
      const suggestion = nearestName(name, known);
      throw new FormulaError("unknown_member", span.start, `unknown member "${name}"${didYouMean(suggestion)}`, {
        code: "unknownMember",
        params: { name, ...(suggestion === undefined ? {} : { suggestion }) },
      });
    }
    if (!this.members.includes(m.handle)) this.members.push(m.handle);
    return m;
  }

  /** The part checked, when it holds `type`; else the problem `what` (the part's user, in the English detail) has with it. */
  private expect(node: FormulaNode, type: FormulaType, what: string, problem: (foundType: FormulaType) => FormulaProblem): CheckedNode<M> {
    const checked = this.check(node);
    if (checked.type !== type) {
      throw new FormulaError("type", node.span.start, `${what} needs ${TYPE_NAMES[type]}, not ${TYPE_NAMES[checked.type]}`, problem(checked.type));
    }
    return checked;
  }

  /** Row values and aggregates do not mix: a dimension beside a measure has no single value per group. */
  private level(nodes: FormulaNode[], checked: CheckedNode<M>[]): FormulaLevel {
    const levels = checked.map((c) => c.level);
    if (levels.includes("aggregate") && levels.includes("row")) {
      const rowNode = nodes[levels.indexOf("row")]!;
      const at = this.firstAt(rowNode, "row");
      throw new FormulaError(
        "mixing",
        at,
        "a dimension (one value per row) stands beside a measure (one value per group): put the dimension inside an aggregate, such as sum(amount) or count(where status = 'returned')",
        { code: "rowBesideAggregate", params: {} },
      );
    }
    return levels.includes("aggregate") ? "aggregate" : levels.includes("row") ? "row" : "constant";
  }

  /** Position of the first member of `node` at the given level (the part to blame). */
  private firstAt(node: FormulaNode, level: "row" | "aggregate"): number {
    let found: number | undefined;
    const walk = (n: FormulaNode) => {
      if (found !== undefined) return;
      if (n.kind === "member") {
        const m = this.scope.member(n.name);
        if (m && (m.kind === "measure") === (level === "aggregate")) found = n.span.start;
        return;
      }
      if (n.kind === "call") {
        if (level === "aggregate" && (n.where || (aggregateFunctions as readonly string[]).includes(n.name.toLowerCase()))) {
          found = n.span.start;
          return;
        }
        n.args.forEach(walk);
        return;
      }
      for (const child of children(n)) walk(child);
    };
    walk(node);
    return found ?? node.span.start;
  }
}

function children(n: FormulaNode): FormulaNode[] {
  switch (n.kind) {
    case "negate":
    case "not":
    case "isNull":
      return [n.operand];
    case "arithmetic":
    case "compare":
    case "logical":
      return [n.left, n.right];
    case "in":
      return [n.operand, ...n.values];
    case "call":
      return [...n.args, ...(n.where ? [n.where] : [])];
    default:
      return [];
  }
}

/** Members a checked part names, in order, once each. */
export function checkedMembers<M>(node: CheckedNode<M>): M[] {
  const out: M[] = [];
  const walk = (n: CheckedNode<M>) => {
    switch (n.kind) {
      case "literal":
        return;
      case "member":
      case "filteredMeasure":
        if (!out.includes(n.member)) out.push(n.member);
        if (n.kind === "filteredMeasure") walk(n.where);
        return;
      case "negate":
      case "not":
      case "isNull":
        return walk(n.operand);
      case "arithmetic":
      case "compare":
      case "logical":
        walk(n.left);
        return walk(n.right);
      case "in":
        walk(n.operand);
        return n.values.forEach(walk);
      case "function":
        return n.args.forEach(walk);
      case "aggregate":
        walk(n.argument);
        if (n.where) walk(n.where);
        return;
    }
  };
  walk(node);
  return out;
}
