import { describe, expect, it } from "vitest";
import type { FormulaNode } from "./ast";
import { FormulaError } from "./formula-error";
import { MAX_FORMULA_DEPTH, MAX_FORMULA_LENGTH, MAX_FORMULA_NODES, parseFormula } from "./parser";

/** The tree as a compact S-expression, with each node's span as start:end. */
function show(n: FormulaNode): string {
  const at = `@${n.span.start}:${n.span.end}`;
  switch (n.kind) {
    case "number":
    case "boolean":
      return `${n.value}${at}`;
    case "string":
      return `${JSON.stringify(n.value)}${at}`;
    case "member":
      return `${n.name}${at}`;
    case "negate":
    case "not":
      return `(${n.kind} ${show(n.operand)})${at}`;
    case "arithmetic":
    case "compare":
    case "logical":
      return `(${n.operator} ${show(n.left)} ${show(n.right)})${at}`;
    case "isNull":
      return `(${n.negate ? "notnull" : "isnull"} ${show(n.operand)})${at}`;
    case "in":
      return `(${n.negate ? "notin" : "in"} ${show(n.operand)} ${n.values.map(show).join(" ")})${at}`;
    case "call":
      return `(call ${n.name}${n.args.map((a) => " " + show(a)).join("")}${n.where ? ` where ${show(n.where)}` : ""})${at}`;
  }
}

function refusal(text: string): { position: number; detail: string } {
  try {
    parseFormula(text);
  } catch (e) {
    if (e instanceof FormulaError) return { position: e.position, detail: e.detail };
    throw e;
  }
  throw new Error(`parsed: ${text}`);
}

describe("parseFormula", () => {
  it.each([
    ["revenue / customers_count", "(/ revenue@0:7 customers_count@10:25)@0:25"],
    ["sales.revenue - cost", "(- sales.revenue@0:13 cost@16:20)@0:20"],
    ["amount * 1.2", "(* amount@0:6 1.2@9:12)@0:12"],
    ["1 + 2 * 3", "(+ 1@0:1 (* 2@4:5 3@8:9)@4:9)@0:9"],
    ["(1 + 2) * 3", "(* (+ 1@1:2 2@5:6)@1:6 3@10:11)@1:11"],
    ["a - b - c", "(- (- a@0:1 b@4:5)@0:5 c@8:9)@0:9"],
    ["-x * 2", "(* (negate x@1:2)@0:2 2@5:6)@0:6"],
    ["- -x", "(negate (negate x@3:4)@2:4)@0:4"],
    ["2.5e3", "2500@0:5"],
    ["'it''s' = 'a\\'b\\\\c\\n'", '(= "it\'s"@0:7 "a\'b\\\\c\\n"@10:21)@0:21'],
    ["count(where status = 'returned') / count", '(/ (call count where (= status@12:18 "returned"@21:31)@12:31)@0:32 count@35:40)@0:40'],
    ["sum(amount where is_big)", "(call sum amount@4:10 where is_big@17:23)@0:24"],
    ["round(x, 2)", "(call round x@6:7 2@9:10)@0:11"],
    ["coalesce(a, b, 0)", "(call coalesce a@9:10 b@12:13 0@15:16)@0:17"],
    ["a = 1 or b = 2 and not c", "(or (= a@0:1 1@4:5)@0:5 (and (= b@9:10 2@13:14)@9:14 (not c@23:24)@19:24)@9:24)@0:24"],
    ["NOT a AND b", "(and (not a@4:5)@0:5 b@10:11)@0:11"],
    ["status is not null", "(notnull status@0:6)@0:18"],
    ["x IS NULL", "(isnull x@0:1)@0:9"],
    ["status not in ('a', 'b')", '(notin status@0:6 "a"@15:18 "b"@20:23)@0:24'],
    ["a <> b", "(!= a@0:1 b@5:6)@0:6"],
    ["sales.where > 1", "(> sales.where@0:11 1@14:15)@0:15"],
    ["true = false", "(= true@0:4 false@7:12)@0:12"],
    ["  a\n\t+ b ", "(+ a@2:3 b@7:8)@2:8"],
  ])("parses %j", (text, expected) => {
    expect(show(parseFormula(text))).toBe(expected);
  });

  it.each([
    ["", 0, "empty"],
    ["   ", 0, "empty"],
    ["revenue +", 9, "ends too early"],
    ["revenue revenue", 8, 'unexpected name "revenue"'],
    ["(a + b", 6, ") to close the ( at character 1"],
    ["a + )", 4, 'unexpected ")"'],
    ["'open", 0, "not closed"],
    ["'a\\qb'", 2, "unknown escape"],
    ["'line\nbreak'", 5, "end of the line"],
    ['"status"', 0, "single quotes"],
    ["a ; drop table x", 2, "unexpected character"],
    ["a < b < c", 6, "do not chain"],
    ["a is 1", 5, "null after is"],
    ["a in 1", 5, "( after in"],
    ["a = null", 4, "is null"],
    ["sales.", 6, "member name was expected"],
    ["sum(a b)", 6, ") to close sum("],
    ["12abc", 2, "runs into a name"],
    ["1e999", 0, "out of range"],
    ["a * 9007199254740992", 4, "within ±9007199254740991"],
    ["x # y", 2, "unexpected character"],
  ])("refuses %j at %i", (text, position, message) => {
    const r = refusal(text);
    expect(r.position).toBe(position);
    expect(r.detail).toContain(message);
  });

  it("gives each refusal a stable code and the parameters of its sentence beside the English words", () => {
    const problemOf = (text: string) => {
      try {
        parseFormula(text);
      } catch (e) {
        if (e instanceof FormulaError) return { code: e.code, params: e.params, message: e.message };
        throw e;
      }
      throw new Error(`parsed: ${text}`);
    };
    expect(problemOf("'open")).toEqual({ code: "unclosedText", params: {}, message: "text is not closed: end it with ' (at character 1)" });
    expect(problemOf("sum(a b)")).toEqual({
      code: "callNotClosed",
      params: { name: "sum", token: "name", tokenText: "b" },
      message: ') to close sum( was expected, not name "b" (at character 7)',
    });
    expect(problemOf("(a + b")).toMatchObject({ code: "parenthesisNotClosed", params: { at: 1, token: "end", tokenText: "" } });
    expect(problemOf("a".repeat(MAX_FORMULA_LENGTH + 1))).toMatchObject({ code: "tooLong", params: { max: MAX_FORMULA_LENGTH } });
    expect(problemOf("x # y")).toMatchObject({ code: "unexpectedCharacter", params: { character: "#" } });
    // After a formula whose last token is a name, too (the name pattern's position does not carry over).
    parseFormula("revenue");
    expect(problemOf("2count")).toMatchObject({
      code: "numberBeforeName",
      message: "a number runs into a name; put an operator between them (at character 2)",
    });
  });

  it("refuses formulas over the length, depth and size limits with a position", () => {
    expect(refusal("a".repeat(MAX_FORMULA_LENGTH + 1))).toEqual({ position: MAX_FORMULA_LENGTH, detail: expect.stringContaining("characters") });
    const deep = "(".repeat(MAX_FORMULA_DEPTH + 1) + "a" + ")".repeat(MAX_FORMULA_DEPTH + 1);
    expect(refusal(deep)).toEqual({ position: MAX_FORMULA_DEPTH, detail: expect.stringContaining("nests at most") });
    expect(show(parseFormula("(".repeat(MAX_FORMULA_DEPTH) + "a" + ")".repeat(MAX_FORMULA_DEPTH)))).toBe(`a@${MAX_FORMULA_DEPTH}:${MAX_FORMULA_DEPTH + 1}`);
    expect(refusal("-".repeat(MAX_FORMULA_DEPTH + 1) + "a").position).toBe(MAX_FORMULA_DEPTH);
    const wide = Array.from({ length: MAX_FORMULA_NODES }, () => "a").join("+");
    const r = refusal(wide);
    expect(r.detail).toContain(`at most ${MAX_FORMULA_NODES}`);
    // Member k (from 0) is node 2k and the + joining it node 2k + 1: the node over the limit is the + before member 250, blamed where that member starts.
    expect(r.position).toBe(2 * 250);
  });
});
