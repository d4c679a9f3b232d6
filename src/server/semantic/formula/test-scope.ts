import type { Dialect } from "../compiler/dialect";
import { QueryParameters } from "../compiler/parameters";
import { checkFormula, type FormulaScope, type FormulaType, type ScopeMember } from "../../../schema/formula/checker";
import { emitFormula } from "./emitter";
import { parseFormula } from "../../../schema/formula/parser";

/** A view's members as the formula tests see them: each member's handle is its qualified name. */
const MEMBERS: Record<string, { kind: "measure" | "dimension"; type: FormulaType }> = {
  revenue: { kind: "measure", type: "number" },
  cost: { kind: "measure", type: "number" },
  count: { kind: "measure", type: "number" },
  customers_count: { kind: "measure", type: "number" },
  status: { kind: "dimension", type: "string" },
  country: { kind: "dimension", type: "string" },
  amount: { kind: "dimension", type: "number" },
  discount: { kind: "dimension", type: "number" },
  is_big: { kind: "dimension", type: "boolean" },
  created_at: { kind: "dimension", type: "time" },
  shipped_at: { kind: "dimension", type: "time" },
};

/** The scope of a view `sales` holding MEMBERS; bare names resolve in it. */
export const salesScope: FormulaScope<string> = {
  member(name: string): ScopeMember<string> | undefined {
    const local = name.startsWith("sales.") ? name.slice("sales.".length) : name.includes(".") ? undefined : name;
    const m = local === undefined || !Object.hasOwn(MEMBERS, local) ? undefined : MEMBERS[local];
    return m && { handle: `sales.${local}`, ...m };
  },
  names: () => [...Object.keys(MEMBERS), ...Object.keys(MEMBERS).map((n) => `sales.${n}`)],
};

/** Formula SQL with members written as `"sales"."<member>"` (measures wrapped in M(…)) and filtered measures as F(member | condition). */
export function emitForTest(text: string, dialect: Dialect): { sql: string; params: (string | number | boolean)[] } {
  const params = new QueryParameters(dialect);
  const checked = checkFormula(parseFormula(text), salesScope);
  const column = (handle: string) =>
    handle
      .split(".")
      .map((p) => dialect.quoteIdentifier(p))
      .join(".");
  const sql = emitFormula(checked.root, {
    dialect,
    bind: (v) => params.add(v),
    member: (h) => (salesScope.member(h)!.kind === "measure" ? `M(${column(h)})` : column(h)),
    filteredMeasure: (h, condition) => `F(${column(h)} | ${condition})`,
  });
  return { sql, params: params.values };
}
