import type { CalculatedField } from "../../../schema/calculated-field";
import type { ValidatedQuery, WireQueryFilter } from "../../../schema/semantic-query";
import { IDENTIFIER, humanizeName, joinTitles, type Cube, type DataModel, type Dimension, type Measure, type View } from "../data-model";
import { QueryValidationError, type QueryProblem, type QueryProblemCode } from "../errors";
import { checkFormula, type CheckedFormula, type FormulaScope, type ScopeMember } from "../../../schema/formula/checker";
import { emitFormula } from "../formula/emitter";
import { FormulaError, type FormulaErrorKind } from "../../../schema/formula/formula-error";
import { parseFormula } from "../../../schema/formula/parser";
import { resolveMember, type ResolvedMember } from "../member-resolution";
import type { Dialect } from "./dialect";
import { filteredMeasureSql } from "./filtered-measure-sql";
import { isMultiplied, unsafeUnderFanOut, type JoinTree } from "./join-tree";
import { memberSql } from "./member-sql";
import type { QueryParameters } from "./parameters";

/** A calculated field of the query, standing where a member would: `<view>.<name>`. */
export interface CalculatedMember extends ResolvedMember {
  calculated: {
    /** Its place in the query's `calculatedFields`. */
    index: number;
    formula: CheckedFormula<ResolvedMember>;
  };
}

export function isCalculatedMember(member: ResolvedMember): member is CalculatedMember {
  return "calculated" in member;
}

type Report = (path: (string | number)[], code: QueryProblemCode, message: string) => void;

const PROBLEM_CODES: Record<FormulaErrorKind, QueryProblemCode> = {
  syntax: "invalid_shape",
  limit: "limit_out_of_range",
  unknown_member: "unknown_member",
  unknown_function: "invalid_shape",
  type: "wrong_value_type",
  mixing: "wrong_member_kind",
};

/** Every member name a wire query uses (measures, dimensions, time dimensions, filters, order). */
export function memberNamesOfQuery(q: {
  measures?: string[];
  dimensions?: string[];
  timeDimensions?: { dimension: string }[];
  filters?: WireQueryFilter[];
  order?: Record<string, string> | [string, string][];
}): string[] {
  const names = [...(q.measures ?? []), ...(q.dimensions ?? []), ...(q.timeDimensions ?? []).map((t) => t.dimension)];
  const walk = (f: WireQueryFilter) => {
    if ("or" in f) f.or.forEach(walk);
    else if ("and" in f) f.and.forEach(walk);
    else names.push(f.member);
  };
  (q.filters ?? []).forEach(walk);
  names.push(...(Array.isArray(q.order) ? q.order.map(([name]) => name) : Object.keys(q.order ?? {})));
  return names;
}

/**
 * Parses and checks the query's calculated fields against the members the viewer may name,
 * and returns them by the name the query uses (`<view>.<name>`). Each problem is reported with
 * the field's path; a formula's message names the position in the formula. A field is named
 * under the view (or cube) the query uses it with, else the one the query's first member names;
 * bare names in its formula are members of that view.
 */
export function resolveCalculatedFields(
  model: DataModel,
  fields: CalculatedField[],
  usedNames: string[],
  report: Report,
): { fields: Map<string, CalculatedMember>; refused: Set<string> } {
  const out = new Map<string, CalculatedMember>();
  // Names of refused fields: their problem is reported once, not again where the query uses them.
  const refused = new Set<string>();
  const seen = new Set<string>();
  fields.forEach((field, index) => {
    const at = (key: string) => ["calculatedFields", index, key];
    if (!IDENTIFIER.test(field.name)) return report(at("name"), "invalid_shape", `calculated field name "${field.name}" must match ^[_a-zA-Z][_a-zA-Z0-9]*$`);
    if (seen.has(field.name)) return report(at("name"), "invalid_shape", `two calculated fields are named "${field.name}"`);
    seen.add(field.name);
    const source = fieldSource(model, field.name, usedNames);
    if (typeof source === "string") return report(at("name"), source.startsWith("calculated") ? "unknown_member" : "unjoinable_members", source);
    const qualified = `${source.name}.${field.name}`;
    if (resolveMember(model, qualified))
      return report(at("name"), "invalid_shape", `${qualified} is already a member of the model; name the calculated field otherwise`);
    let formula: CheckedFormula<ResolvedMember>;
    try {
      formula = checkFormula(parseFormula(field.formula), scopeOf(model, source));
    } catch (e) {
      if (!(e instanceof FormulaError)) throw e;
      refused.add(qualified);
      return report(at("formula"), PROBLEM_CODES[e.kind], e.message);
    }
    out.set(qualified, calculatedMember(field, index, source, formula));
  });
  return { fields: out, refused };
}

/** The calculated fields of a validated query, by name (the validator has refused any problem already). */
export function planCalculatedFields(model: DataModel, query: ValidatedQuery): Map<string, CalculatedMember> {
  const problems: QueryProblem[] = [];
  const { fields } = resolveCalculatedFields(model, query.calculatedFields ?? [], memberNamesOfQuery(query), (path, code, message) =>
    problems.push({ path, code, message }),
  );
  if (problems.length) throw new QueryValidationError(problems);
  return fields;
}

/** A resolver that knows the query's calculated fields besides the model's members. */
export function memberResolver(model: DataModel, calculated: ReadonlyMap<string, CalculatedMember>): (name: string) => ResolvedMember | undefined {
  return (name) => calculated.get(name) ?? resolveMember(model, name);
}

function fieldSource(model: DataModel, name: string, usedNames: string[]): Cube | View | string {
  const sourceNamed = (head: string) => {
    const s = model.views.get(head) ?? model.cubes.get(head);
    return s?.public ? s : undefined;
  };
  const heads = new Set<string>();
  for (const used of usedNames) {
    const dot = used.indexOf(".");
    if (dot > 0 && used.slice(dot + 1) === name && sourceNamed(used.slice(0, dot))) heads.add(used.slice(0, dot));
  }
  if (heads.size > 1) return `calculated field "${name}" is used under ${[...heads].join(" and ")}: a query reads one view`;
  if (heads.size === 1) return sourceNamed([...heads][0]!)!;
  // Unused here: the view the query names first (by a member, or by another calculated field).
  for (const used of usedNames) {
    const dot = used.indexOf(".");
    const source = dot > 0 ? sourceNamed(used.slice(0, dot)) : undefined;
    if (source) return source;
  }
  return `calculated field "${name}" is not used by the query: name it <view>.${name} in measures, dimensions, filters or order`;
}

function scopeOf(model: DataModel, source: Cube | View): FormulaScope<ResolvedMember> {
  const cache = new Map<string, ScopeMember<ResolvedMember> | undefined>();
  const local = source.kind === "view" ? [...source.members.keys()] : [...source.dimensions.keys(), ...source.measures.keys()];
  return {
    member(name) {
      if (!cache.has(name)) {
        const m = resolveMember(model, name.includes(".") ? name : `${source.name}.${name}`);
        cache.set(name, m?.source.public ? { handle: m, kind: m.kind, type: m.kind === "measure" ? "number" : (m.def as Dimension).type } : undefined);
      }
      return cache.get(name);
    },
    names: () => [...local, ...local.map((n) => `${source.name}.${n}`)],
  };
}

function calculatedMember(field: CalculatedField, index: number, source: Cube | View, formula: CheckedFormula<ResolvedMember>): CalculatedMember {
  const shortTitle = field.title ?? humanizeName(field.name);
  const format = field.format ? { format: field.format } : {};
  // The definition gives annotations and filters their type; the SQL always comes from the formula.
  const def: Dimension | Measure =
    formula.level === "aggregate"
      ? { kind: "measure", name: field.name, type: "number", title: shortTitle, filters: [], ...format }
      : { kind: "dimension", name: field.name, sql: "NULL", type: formula.type, primaryKey: false, title: shortTitle, ...format };
  const first = formula.members[0]!;
  return {
    name: `${source.name}.${field.name}`,
    kind: def.kind,
    source,
    cube: first.cube,
    def,
    ...(first.joinPath ? { joinPath: first.joinPath } : {}),
    title: field.title ?? joinTitles(source.title, shortTitle),
    shortTitle,
    calculated: { index, formula },
  };
}

/** The model members behind a list of members: a calculated field stands for those its formula names. */
export function withFormulaMembers(members: ResolvedMember[]): ResolvedMember[] {
  return members.flatMap((m) => (isCalculatedMember(m) ? m.calculated.formula.members : [m]));
}

/**
 * Fan-out inside formulas, as for the query's own measures: a measure whose rows a to-many
 * join repeats counts by primary key, and sums and averages (of measures or of `sum()`,
 * `avg()`, `count()` over dimensions) are refused. Adds the cubes of such measures to `multiplied`.
 */
export function checkCalculatedFanOut(model: DataModel, tree: JoinTree, members: ResolvedMember[], multiplied: Set<string>, problems: QueryProblem[]): void {
  const done = new Set<number>();
  for (const m of members) {
    if (!isCalculatedMember(m) || done.has(m.calculated.index)) continue;
    done.add(m.calculated.index);
    const path = ["calculatedFields", m.calculated.index, "formula"];
    for (const r of m.calculated.formula.members) {
      if (r.kind !== "measure" || !isMultiplied(model, tree, r.cube.name)) continue;
      multiplied.add(r.cube.name);
      const unsafe = unsafeUnderFanOut(r.cube, r.def as Measure);
      if (unsafe) problems.push({ path, code: "fan_out", message: `${r.name} would be multiplied by a one-to-many join in this query (${unsafe})` });
    }
    for (const a of m.calculated.formula.aggregates) {
      if (a.name !== "sum" && a.name !== "avg" && a.name !== "count") continue;
      const repeated = a.members.find((r) => isMultiplied(model, tree, r.cube.name));
      if (repeated) {
        problems.push({
          path,
          code: "fan_out",
          message: `${a.name}() at character ${a.position + 1} would count rows of ${repeated.name} repeated by a one-to-many join in this query`,
        });
      }
    }
  }
}

/** What writing a formula's SQL needs of the statement. */
export interface FormulaSqlContext {
  dialect: Dialect;
  params: QueryParameters;
  multiplied: ReadonlySet<string>;
}

/** SQL of a calculated field: its formula, literals bound as parameters of the statement. */
export function calculatedMemberSql(ctx: FormulaSqlContext, member: CalculatedMember): string {
  const repeated = (r: ResolvedMember) => ctx.multiplied.has(r.cube.name);
  return emitFormula(member.calculated.formula.root, {
    dialect: ctx.dialect,
    bind: (value) => ctx.params.add(value),
    member: (r) => memberSql(ctx.dialect, r.cube, r.def, repeated(r)),
    filteredMeasure: (r, condition) => filteredMeasureSql(ctx.dialect, r.cube, r.def as Measure, repeated(r), condition),
  });
}
