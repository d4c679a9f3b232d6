import type { ComparisonOperator, FormulaNode, Span } from "./ast";
import { FormulaError, type FormulaProblem, type FoundToken } from "./formula-error";
import { tokenize, type Keyword, type Punctuation, type Token } from "./tokenizer";

/** Most characters a formula may have. */
export const MAX_FORMULA_LENGTH = 2000;
/** Deepest nesting of parentheses, calls and prefix operators. */
export const MAX_FORMULA_DEPTH = 32;
/** Most nodes (members, literals, operators, calls) in one formula. */
export const MAX_FORMULA_NODES = 500;

const COMPARISONS: Partial<Record<Punctuation, ComparisonOperator>> = {
  "=": "=",
  "!=": "!=",
  "<>": "!=",
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
};

/**
 * Parses a formula into a tree whose every node knows where it was written. Throws
 * `FormulaError` (with the position) for a syntax error or a formula over the limits.
 *
 * ```
 * formula    := or
 * or         := and ("or" and)*
 * and        := not ("and" not)*
 * not        := "not" not | comparison
 * comparison := additive [ op additive | "is" ["not"] "null" | ["not"] "in" "(" additive ("," additive)* ")" ]
 * additive   := term (("+" | "-") term)*
 * term       := unary (("*" | "/") unary)*
 * unary      := "-" unary | primary
 * primary    := number | 'text' | true | false | "(" or ")" | name [ "(" arguments ")" ]
 * name       := identifier ["." identifier]
 * arguments  := [ or ("," or)* ] [ "where" or ]
 * ```
 */
export function parseFormula(text: string): FormulaNode {
  if (text.length > MAX_FORMULA_LENGTH) {
    throw new FormulaError("limit", MAX_FORMULA_LENGTH, `a formula has at most ${MAX_FORMULA_LENGTH} characters`, {
      code: "tooLong",
      params: { max: MAX_FORMULA_LENGTH },
    });
  }
  const parser = new Parser(tokenize(text));
  if (parser.peek().type === "end") throw new FormulaError("syntax", 0, "the formula is empty", { code: "empty", params: {} });
  const node = parser.or();
  const rest = parser.peek();
  if (rest.type !== "end") {
    throw new FormulaError("syntax", rest.start, `unexpected ${describe(rest)}: an operator (+ - * / = and or …) or the end of the formula was expected`, {
      code: "operatorExpected",
      params: found(rest),
    });
  }
  return node;
}

class Parser {
  private index = 0;
  private depth = 0;
  private nodes = 0;

  constructor(private readonly tokens: Token[]) {}

  peek(): Token {
    return this.tokens[this.index]!;
  }

  or(): FormulaNode {
    let left = this.and();
    while (this.isKeyword("or")) {
      this.index++;
      const right = this.and();
      left = this.node({ kind: "logical", operator: "or", left, right, span: cover(left.span, right.span) });
    }
    return left;
  }

  private and(): FormulaNode {
    let left = this.not();
    while (this.isKeyword("and")) {
      this.index++;
      const right = this.not();
      left = this.node({ kind: "logical", operator: "and", left, right, span: cover(left.span, right.span) });
    }
    return left;
  }

  private not(): FormulaNode {
    if (!this.isKeyword("not")) return this.comparison();
    const start = this.take().start;
    return this.nested(start, () => {
      const operand = this.not();
      return this.node({ kind: "not", operand, span: { start, end: operand.span.end } });
    });
  }

  private comparison(): FormulaNode {
    const left = this.additive();
    const token = this.peek();
    const operator = token.type === "punctuation" ? COMPARISONS[token.punctuation] : undefined;
    let node: FormulaNode = left;
    if (operator) {
      this.index++;
      const right = this.additive();
      node = this.node({ kind: "compare", operator, left, right, span: cover(left.span, right.span) });
    } else if (this.isKeyword("is")) {
      this.index++;
      const negate = this.isKeyword("not");
      if (negate) this.index++;
      const end = this.expectKeyword("null", "null after is (is null, is not null)", (params) => ({ code: "nullExpectedAfterIs", params })).end;
      node = this.node({ kind: "isNull", negate, operand: left, span: { start: left.span.start, end } });
    } else if (this.isKeyword("in") || (this.isKeyword("not") && this.tokens[this.index + 1]?.type === "keyword" && this.isKeyword("in", 1))) {
      const negate = this.isKeyword("not");
      this.index += negate ? 2 : 1;
      this.expectPunctuation("(", "( after in: status in ('returned', 'lost')", (params) => ({ code: "parenthesisExpectedAfterIn", params }));
      const values = [this.additive()];
      while (this.isPunctuation(",")) {
        this.index++;
        values.push(this.additive());
      }
      const end = this.expectPunctuation(")", ") or , in the list after in", (params) => ({ code: "inListNotClosed", params })).end;
      node = this.node({ kind: "in", negate, operand: left, values, span: { start: left.span.start, end } });
    }
    const next = this.peek();
    if (node !== left && next.type === "punctuation" && COMPARISONS[next.punctuation]) {
      throw new FormulaError("syntax", next.start, "comparisons do not chain: join them with and (a < b and b < c)", { code: "chainedComparison", params: {} });
    }
    return node;
  }

  private additive(): FormulaNode {
    let left = this.term();
    for (let t = this.peek(); t.type === "punctuation" && (t.punctuation === "+" || t.punctuation === "-"); t = this.peek()) {
      this.index++;
      const right = this.term();
      left = this.node({ kind: "arithmetic", operator: t.punctuation, left, right, span: cover(left.span, right.span) });
    }
    return left;
  }

  private term(): FormulaNode {
    let left = this.unary();
    for (let t = this.peek(); t.type === "punctuation" && (t.punctuation === "*" || t.punctuation === "/"); t = this.peek()) {
      this.index++;
      const right = this.unary();
      left = this.node({ kind: "arithmetic", operator: t.punctuation, left, right, span: cover(left.span, right.span) });
    }
    return left;
  }

  private unary(): FormulaNode {
    if (!this.isPunctuation("-")) return this.primary();
    const start = this.take().start;
    return this.nested(start, () => {
      const operand = this.unary();
      return this.node({ kind: "negate", operand, span: { start, end: operand.span.end } });
    });
  }

  private primary(): FormulaNode {
    const token = this.take();
    switch (token.type) {
      case "number":
        return this.node({ kind: "number", value: token.value, span: spanOf(token) });
      case "string":
        return this.node({ kind: "string", value: token.value, span: spanOf(token) });
      case "identifier":
        return this.nameOrCall(token);
      case "keyword":
        if (token.keyword === "true" || token.keyword === "false") return this.node({ kind: "boolean", value: token.keyword === "true", span: spanOf(token) });
        if (token.keyword === "null") {
          throw new FormulaError("syntax", token.start, "null is not a value here: test it with is null / is not null, replace it with coalesce(x, 0)", {
            code: "nullNotValue",
            params: {},
          });
        }
        throw valueExpected(token);
      case "punctuation":
        if (token.punctuation === "(") {
          return this.nested(token.start, () => {
            const inner = this.or();
            this.expectPunctuation(")", ") to close the ( at character " + (token.start + 1), (params) => ({
              code: "parenthesisNotClosed",
              params: { ...params, at: token.start + 1 },
            }));
            return inner;
          });
        }
        throw valueExpected(token);
      case "end":
        throw new FormulaError("syntax", token.start, "the formula ends too early: a value, a member or ( was expected", { code: "endsEarly", params: {} });
    }
  }

  private nameOrCall(first: Token & { type: "identifier" }): FormulaNode {
    let name = first.name;
    let end = first.end;
    if (this.isPunctuation(".")) {
      this.index++;
      const second = this.take();
      if (second.type === "identifier") name += `.${second.name}`;
      else if (second.type === "keyword") name += `.${second.text}`;
      else throw new FormulaError("syntax", second.start, "a member name was expected after the dot", { code: "memberNameAfterDot", params: {} });
      end = second.end;
    }
    const nameSpan = { start: first.start, end };
    if (!this.isPunctuation("(")) return this.node({ kind: "member", name, span: nameSpan });
    const open = this.take();
    return this.nested(open.start, () => {
      const args: FormulaNode[] = [];
      if (!this.isPunctuation(")") && !this.isKeyword("where")) {
        args.push(this.or());
        while (this.isPunctuation(",")) {
          this.index++;
          args.push(this.or());
        }
      }
      let where: FormulaNode | undefined;
      if (this.isKeyword("where")) {
        this.index++;
        where = this.or();
      }
      const close = this.expectPunctuation(")", `) to close ${name}(`, (params) => ({ code: "callNotClosed", params: { ...params, name } }));
      return this.node({ kind: "call", name, nameSpan, args, ...(where ? { where } : {}), span: { start: first.start, end: close.end } });
    });
  }

  private nested<T>(position: number, parse: () => T): T {
    if (++this.depth > MAX_FORMULA_DEPTH) {
      throw new FormulaError("limit", position, `a formula nests at most ${MAX_FORMULA_DEPTH} levels of parentheses, calls and signs`, {
        code: "tooDeep",
        params: { max: MAX_FORMULA_DEPTH },
      });
    }
    const result = parse();
    this.depth--;
    return result;
  }

  private node(node: FormulaNode): FormulaNode {
    if (++this.nodes > MAX_FORMULA_NODES) {
      // An operator is blamed where its right-hand side starts: its own span starts with the whole chain.
      const at = "right" in node ? node.right.span.start : node.span.start;
      throw new FormulaError("limit", at, `a formula has at most ${MAX_FORMULA_NODES} values, members and operators`, {
        code: "tooManyParts",
        params: { max: MAX_FORMULA_NODES },
      });
    }
    return node;
  }

  private take(): Token {
    const token = this.tokens[this.index]!;
    if (token.type !== "end") this.index++;
    return token;
  }

  private isKeyword(keyword: Keyword, ahead = 0): boolean {
    const t = this.tokens[this.index + ahead];
    return t?.type === "keyword" && t.keyword === keyword;
  }

  private isPunctuation(p: Punctuation): boolean {
    const t = this.peek();
    return t.type === "punctuation" && t.punctuation === p;
  }

  private expectPunctuation(p: Punctuation, what: string, problem: (found: FoundToken) => FormulaProblem): Token {
    const t = this.peek();
    if (t.type === "punctuation" && t.punctuation === p) return this.take();
    throw new FormulaError("syntax", t.start, `${what} was expected, not ${describe(t)}`, problem(found(t)));
  }

  private expectKeyword(keyword: Keyword, what: string, problem: (found: FoundToken) => FormulaProblem): Token {
    const t = this.peek();
    if (t.type === "keyword" && t.keyword === keyword) return this.take();
    throw new FormulaError("syntax", t.start, `${what} was expected, not ${describe(t)}`, problem(found(t)));
  }
}

function spanOf(token: Token): Span {
  return { start: token.start, end: token.end };
}

function cover(a: Span, b: Span): Span {
  return { start: a.start, end: b.end };
}

function describe(token: Token): string {
  switch (token.type) {
    case "number":
      return "number";
    case "string":
      return "text";
    case "identifier":
      return `name "${token.name}"`;
    case "keyword":
      return `"${token.text}"`;
    case "punctuation":
      return `"${token.punctuation}"`;
    case "end":
      return "end of the formula";
  }
}

/** A token that does not fit, for a problem's parameters: what it is and how it is written. */
function found(token: Token): FoundToken {
  switch (token.type) {
    case "number":
      return { token: "number", tokenText: String(token.value) };
    case "string":
      return { token: "text", tokenText: token.value };
    case "identifier":
      return { token: "name", tokenText: token.name };
    case "keyword":
      return { token: "keyword", tokenText: token.text };
    case "punctuation":
      return { token: "symbol", tokenText: token.punctuation };
    case "end":
      return { token: "end", tokenText: "" };
  }
}

function valueExpected(token: Token): FormulaError {
  return new FormulaError("syntax", token.start, `unexpected ${describe(token)}: a value, a member or ( was expected`, {
    code: "valueExpected",
    params: found(token),
  });
}
