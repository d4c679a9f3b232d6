import type { FormulaNode } from "../../../schema/formula/ast";
import { aggregateFunctions, scalarFunctions } from "../../../schema/formula/checker";
import { FormulaError } from "../../../schema/formula/formula-error";
import { parseFormula } from "../../../schema/formula/parser";

const FUNCTIONS = new Set<string>([...aggregateFunctions, ...scalarFunctions]);

/**
 * The members a formula names, as `<view>.<member>`: bare names (`amount`, and a measure called
 * with a condition, `count(where …)`) in `view`, qualified names as written. For scope checks
 * that must see through a calculated field to the members behind it (the chat's tools); null
 * when the formula does not parse (the query's validation then refuses it with a position).
 */
export function membersNamedByFormula(formula: string, view: string): string[] | null {
  let tree: FormulaNode;
  try {
    tree = parseFormula(formula);
  } catch (e) {
    if (e instanceof FormulaError) return null;
    throw e;
  }
  const out: string[] = [];
  const name = (written: string) => (written.includes(".") ? written : `${view}.${written}`);
  const walk = (node: FormulaNode): void => {
    switch (node.kind) {
      case "member":
        out.push(name(node.name));
        return;
      case "negate":
      case "not":
      case "isNull":
        walk(node.operand);
        return;
      case "arithmetic":
      case "compare":
      case "logical":
        walk(node.left);
        walk(node.right);
        return;
      case "in":
        walk(node.operand);
        node.values.forEach(walk);
        return;
      case "call":
        // `count(where …)` filters the measure count; `count(x)` and `sum(x where …)` aggregate x.
        if ((node.args.length === 0 && node.where) || !FUNCTIONS.has(node.name.toLowerCase())) out.push(name(node.name));
        node.args.forEach(walk);
        if (node.where) walk(node.where);
        return;
      default:
        return;
    }
  };
  walk(tree);
  return out;
}
