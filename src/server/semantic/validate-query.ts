import type { DataModel, Dimension } from "./data-model";
import { DATE_BOUNDS_TEXT, isValidTimeZone, parseAbsoluteDate, resolveDateRange } from "./date-range";
import { QueryValidationError, type QueryProblem, type QueryProblemCode } from "./errors";
import { memberNamesOfQuery, memberResolver, resolveCalculatedFields } from "./compiler/calculated-fields";
import type { ResolvedMember } from "./member-resolution";
import { checkCalculations, checkCompare, checkCompareFilters, checkGroupLimit, keyColumnsOf, measureColumnsOf, type AnalysisInput } from "./validate-analysis";
import {
  DEFAULT_QUERY_LIMIT,
  MAX_QUERY_LIMIT,
  filterOperators,
  granularities,
  SemanticQuerySchema,
  timeParts,
  type FilterOperator,
  type FilterValue,
  type Granularity,
  type MemberFilter,
  type TimePart,
  type OrderDirection,
  type QueryFilter,
  type WireQueryFilter,
  type TimeDimension,
  type ValidatedQuery,
} from "../../schema/semantic-query";

type Path = (string | number)[];

const STRING_OPERATORS = new Set<FilterOperator>(["contains", "notContains", "startsWith", "notStartsWith", "endsWith", "notEndsWith"]);
const DATE_OPERATORS = new Set<FilterOperator>(["inDateRange", "notInDateRange", "beforeDate", "beforeOrOnDate", "afterDate", "afterOrOnDate"]);
const COMPARISON_OPERATORS = new Set<FilterOperator>(["gt", "gte", "lt", "lte"]);
/** Two numbers, both bounds included. */
const BETWEEN_OPERATORS = new Set<FilterOperator>(["between", "notBetween"]);
/** Measures are filtered after aggregation (HAVING); only these operators make sense there. */
const MEASURE_OPERATORS = new Set<FilterOperator>(["equals", "notEquals", "in", "notIn", "gt", "gte", "lt", "lte", "between", "notBetween", "set", "notSet"]);

/** Options of `validateQuery`. */
export interface ValidateQueryOptions {
  /** Clock for relative date ranges ("last 7 days"); defaults to the current time. */
  now?: Date;
  /**
   * Whether filters may name measures (they compile to HAVING). Default true; the engine
   * turns it off where no aggregation exists (distinct value pickers).
   */
  allowMeasureFilters?: boolean;
}

class ProblemList {
  readonly items: QueryProblem[] = [];
  add(path: Path, code: QueryProblemCode, message: string) {
    this.items.push({ path, code, message });
  }
}

/**
 * Checks a member filter's operator and values against the member and returns the values
 * normalized to the member's type (numbers as numbers, booleans as booleans). Shared by
 * query filters and access-policy filters.
 */
export function normalizeFilter(
  member: ResolvedMember,
  filter: { operator: string; values?: FilterValue[] },
  path: Path,
  problems: { add(path: Path, code: QueryProblemCode, message: string): void },
): FilterValue[] | undefined {
  const op = filter.operator as FilterOperator;
  if (!(filterOperators as readonly string[]).includes(op)) {
    problems.add([...path, "operator"], "bad_operator", `unknown operator "${filter.operator}"`);
    return undefined;
  }
  const values = filter.values ?? [];
  const type = member.kind === "measure" ? "number" : (member.def as Dimension).type;
  if (member.kind === "measure" && !MEASURE_OPERATORS.has(op)) {
    problems.add([...path, "operator"], "bad_operator", `operator "${op}" does not apply to measure ${member.name}`);
    return undefined;
  }
  if (STRING_OPERATORS.has(op) && type !== "string") {
    problems.add([...path, "operator"], "bad_operator", `operator "${op}" needs a string dimension; ${member.name} is ${type}`);
    return undefined;
  }
  if (DATE_OPERATORS.has(op) && type !== "time") {
    problems.add([...path, "operator"], "bad_operator", `operator "${op}" needs a time dimension; ${member.name} is ${type}`);
    return undefined;
  }
  if (COMPARISON_OPERATORS.has(op) && type !== "number" && type !== "time") {
    problems.add([...path, "operator"], "bad_operator", `operator "${op}" needs a number or time member; ${member.name} is ${type}`);
    return undefined;
  }
  if (BETWEEN_OPERATORS.has(op)) return betweenValues(member, op, values, path, problems);
  if (op === "set" || op === "notSet") {
    if (values.length > 0) problems.add([...path, "values"], "wrong_value_count", `operator "${op}" takes no values`);
    return [];
  }
  if (op === "inDateRange" || op === "notInDateRange") {
    if (values.length === 2 && values.every((v) => typeof v === "string" && parseAbsoluteDate(v))) return values;
    if (values.length === 1 && typeof values[0] === "string") return values; // relative phrase, checked by caller
    problems.add([...path, "values"], "malformed_date_range", `operator "${op}" takes [from, to] dates or one relative range`);
    return undefined;
  }
  const single = COMPARISON_OPERATORS.has(op) || DATE_OPERATORS.has(op);
  if (values.length === 0 || (single && values.length !== 1)) {
    problems.add([...path, "values"], "wrong_value_count", `operator "${op}" takes ${single ? "exactly one value" : "one or more values"}`);
    return undefined;
  }
  const out: FilterValue[] = [];
  let ok = true;
  values.forEach((v, i) => {
    const at = [...path, "values", i];
    if (v === null) {
      problems.add(at, "wrong_value_type", `null is not a value; use the set / notSet operators`);
      ok = false;
      return;
    }
    switch (type) {
      case "string":
        out.push(String(v));
        return;
      case "number": {
        const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
        if (!Number.isFinite(n)) {
          problems.add(at, "wrong_value_type", `${JSON.stringify(v)} is not a number (${member.name} is a number)`);
          ok = false;
        } else if (Math.abs(n) > Number.MAX_SAFE_INTEGER) {
          // Beyond 2^53 a number is no longer exact, and beyond int64 the engines refuse to compare it.
          problems.add(at, "value_out_of_range", `${JSON.stringify(v)} is out of range: filter numbers lie within ±${Number.MAX_SAFE_INTEGER}`);
          ok = false;
        } else out.push(n);
        return;
      }
      case "boolean":
        if (v === true || v === "true") out.push(true);
        else if (v === false || v === "false") out.push(false);
        else {
          problems.add(at, "wrong_value_type", `${JSON.stringify(v)} is not a boolean (${member.name} is a boolean)`);
          ok = false;
        }
        return;
      case "time":
        if (typeof v !== "string" || !parseAbsoluteDate(v)) {
          problems.add(at, "wrong_value_type", `${JSON.stringify(v)} is not a date (YYYY-MM-DD or ISO 8601; ${DATE_BOUNDS_TEXT})`);
          ok = false;
        } else out.push(v);
        return;
    }
  });
  return ok ? out : undefined;
}

/** `between` / `notBetween`: exactly two numbers on a number member, the lower first. */
function betweenValues(
  member: ResolvedMember,
  op: FilterOperator,
  values: FilterValue[],
  path: Path,
  problems: { add(path: Path, code: QueryProblemCode, message: string): void },
): FilterValue[] | undefined {
  const type = member.kind === "measure" ? "number" : (member.def as Dimension).type;
  if (type !== "number") {
    problems.add([...path, "operator"], "bad_operator", `operator "${op}" needs a number member; ${member.name} is ${type} (inDateRange takes dates)`);
    return undefined;
  }
  if (values.length !== 2) {
    problems.add([...path, "values"], "wrong_value_count", `operator "${op}" takes exactly two numbers: [low, high], both included`);
    return undefined;
  }
  const numbers = values.map((v) => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN));
  let ok = true;
  numbers.forEach((n, i) => {
    if (!Number.isFinite(n)) {
      problems.add([...path, "values", i], "wrong_value_type", `${JSON.stringify(values[i])} is not a number`);
      ok = false;
    } else if (Math.abs(n) > Number.MAX_SAFE_INTEGER) {
      problems.add(
        [...path, "values", i],
        "value_out_of_range",
        `${JSON.stringify(values[i])} is out of range: filter numbers lie within ±${Number.MAX_SAFE_INTEGER}`,
      );
      ok = false;
    }
  });
  if (ok && numbers[0]! > numbers[1]!) {
    problems.add([...path, "values"], "value_out_of_range", `operator "${op}" takes [low, high]: ${numbers[0]} is above ${numbers[1]}`);
    ok = false;
  }
  return ok ? numbers : undefined;
}

/** Member names a query touches, by the role they play. */
export function collectFilterMembers(filters: QueryFilter[]): string[] {
  const out: string[] = [];
  const walk = (f: QueryFilter) => {
    if ("or" in f) f.or.forEach(walk);
    else if ("and" in f) f.and.forEach(walk);
    else out.push(f.member);
  };
  filters.forEach(walk);
  return out;
}

/**
 * Validates query JSON against the model. Returns the normalized query (limit set, order
 * as a list, values typed); throws `QueryValidationError` listing every problem with its
 * JSON path otherwise.
 */
export function validateQuery(model: DataModel, input: unknown, options: ValidateQueryOptions = {}): ValidatedQuery {
  const problems = new ProblemList();
  const parsed = SemanticQuerySchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.add(
        issue.path.map((k) => (typeof k === "symbol" ? String(k) : k)),
        "invalid_shape",
        issue.message,
      );
    }
    throw new QueryValidationError(problems.items);
  }
  const q = parsed.data;
  const now = options.now ?? new Date();
  const allowMeasureFilters = options.allowMeasureFilters ?? true;

  let timezone = "UTC";
  if (q.timezone !== undefined) {
    if (isValidTimeZone(q.timezone)) timezone = q.timezone;
    else problems.add(["timezone"], "bad_timezone", `"${q.timezone}" is not an IANA time zone`);
  }

  const sources = new Set<string>();
  // Calculated fields (compiler/calculated-fields.ts) are members `<view>.<name>` of this query;
  // the members their formulas name count among the query's sources.
  const calculated = resolveCalculatedFields(model, q.calculatedFields ?? [], memberNamesOfQuery(q), (path, code, message) =>
    problems.add(path, code, message),
  );
  for (const c of calculated.fields.values()) for (const m of [c, ...c.calculated.formula.members]) sources.add(`${m.source.kind}:${m.source.name}`);
  const resolve = memberResolver(model, calculated.fields);
  const lookup = (name: string, path: Path, kind?: "dimension" | "measure"): ResolvedMember | undefined => {
    if (calculated.refused.has(name)) return undefined;
    const m = resolve(name);
    if (!m || !m.source.public) {
      problems.add(path, "unknown_member", `unknown member "${name}"`);
      return undefined;
    }
    if (kind && m.kind !== kind) {
      problems.add(path, "wrong_member_kind", `${name} is a ${m.kind}, not a ${kind}`);
      return undefined;
    }
    sources.add(`${m.source.kind}:${m.source.name}`);
    return m;
  };

  const measures = q.measures ?? [];
  const dimensions = q.dimensions ?? [];
  measures.forEach((name, i) => lookup(name, ["measures", i], "measure"));
  dimensions.forEach((name, i) => lookup(name, ["dimensions", i], "dimension"));

  const timeDimensions: TimeDimension[] = [];
  (q.timeDimensions ?? []).forEach((td, i) => {
    const m = lookup(td.dimension, ["timeDimensions", i, "dimension"], "dimension");
    if (m && (m.def as Dimension).type !== "time") {
      problems.add(["timeDimensions", i, "dimension"], "wrong_member_kind", `${td.dimension} is not a time dimension`);
    }
    if (td.granularity !== undefined && !(granularities as readonly string[]).includes(td.granularity)) {
      problems.add(["timeDimensions", i, "granularity"], "invalid_shape", `unknown granularity "${td.granularity}" (${granularities.join(", ")})`);
    }
    if (td.part !== undefined && !(timeParts as readonly string[]).includes(td.part)) {
      problems.add(["timeDimensions", i, "part"], "invalid_shape", `unknown part of time "${td.part}" (${timeParts.join(", ")})`);
    } else if (td.part !== undefined && td.granularity !== undefined) {
      problems.add(
        ["timeDimensions", i, "part"],
        "invalid_shape",
        "a time dimension takes a granularity or a part of time, not both (name the dimension twice for both)",
      );
    }
    if (td.dateRange !== undefined) {
      const resolved = resolveDateRange(td.dateRange, timezone, now);
      if (typeof resolved === "string") problems.add(["timeDimensions", i, "dateRange"], "malformed_date_range", resolved);
    }
    timeDimensions.push({
      dimension: td.dimension,
      granularity: td.granularity as Granularity | undefined,
      ...(td.part !== undefined ? { part: td.part as TimePart } : {}),
      dateRange: td.dateRange as TimeDimension["dateRange"],
    });
  });

  (q.filters ?? []).forEach((f, i) => checkFilter(f, ["filters", i]));

  // Period against period, calculations over the rows and top N per group (validate-analysis.ts).
  const analysis: AnalysisInput = { measures, dimensions, timeDimensions, timezone, now, problems, lookup };
  const compare = checkCompare(q.compare, analysis);
  const measureFilters = (q.filters ?? []).map((f) => collectWireMembers(f).some((n) => resolve(n)?.kind === "measure"));
  checkCompareFilters(compare, measureFilters, problems);
  const measureColumns = measureColumnsOf(measures, compare !== undefined);
  const taken = new Set([...keyColumnsOf(analysis), ...measureColumns]);
  const calculations = checkCalculations(q.calculations, analysis, measureColumns, taken);
  const groupLimit = checkGroupLimit(q.groupLimit, analysis, measureColumns);

  function checkFilter(f: WireQueryFilter, path: Path): QueryFilter {
    if ("or" in f || "and" in f) {
      const key = "or" in f ? "or" : "and";
      const children = ("or" in f ? f.or : f.and).map((c, i) => checkFilter(c, [...path, key, i]));
      const members = collectFilterMembers(children).map((n) => resolve(n)?.kind);
      if (members.includes("measure") && members.includes("dimension")) {
        problems.add(path, "measure_filter_not_allowed", `a filter group may not mix measures (HAVING) and dimensions (WHERE)`);
      }
      return key === "or" ? { or: children } : { and: children };
    }
    const mf = f as MemberFilter;
    const m = lookup(mf.member, [...path, "member"]);
    if (!m) return mf;
    if (m.kind === "measure" && !allowMeasureFilters) {
      problems.add([...path, "member"], "measure_filter_not_allowed", `filters on measures are not allowed here (${mf.member})`);
      return mf;
    }
    const values = normalizeFilter(m, mf, path, problems);
    if (values && (mf.operator === "inDateRange" || mf.operator === "notInDateRange")) {
      const range = values.length === 1 ? (values[0] as string) : (values as string[]);
      const resolved = resolveDateRange(range, timezone, now);
      if (typeof resolved === "string") problems.add([...path, "values"], "malformed_date_range", resolved);
    }
    return { member: mf.member, operator: mf.operator, ...(values && values.length ? { values } : {}) };
  }

  if (sources.size > 1 && [...sources].some((s) => s.startsWith("view:"))) {
    problems.add([], "unjoinable_members", `a query reads one view (or cubes only); it names ${[...sources].map((s) => s.split(":")[1]).join(", ")}`);
  }

  if (measures.length === 0 && dimensions.length === 0 && !timeDimensions.some((t) => t.granularity || t.part)) {
    problems.add([], "empty_query", "a query needs a measure, a dimension, or a time dimension with a granularity or a part of time");
  }

  const limit = q.limit ?? DEFAULT_QUERY_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_QUERY_LIMIT) {
    problems.add(["limit"], "limit_out_of_range", `limit must be an integer from 1 to ${MAX_QUERY_LIMIT}`);
  }
  const offset = q.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > 10_000_000) {
    problems.add(["offset"], "limit_out_of_range", "offset must be an integer from 0 to 10000000");
  }

  // Order keys must be selected columns: a time dimension by its name or name.granularity.
  const selectable = new Set<string>([...measureColumns, ...dimensions, ...(calculations ?? []).map((c) => c.name!)]);
  for (const td of timeDimensions) {
    if (td.part) selectable.add(`${td.dimension}.${td.part}`);
    if (!td.granularity) continue;
    selectable.add(`${td.dimension}.${td.granularity}`);
    selectable.add(td.dimension);
  }
  const rawOrder: [string, string][] = Array.isArray(q.order) ? (q.order as [string, string][]) : Object.entries(q.order ?? {});
  const order: [string, OrderDirection][] = [];
  rawOrder.forEach(([member, dir], i) => {
    const path: Path = Array.isArray(q.order) ? ["order", i] : ["order", member];
    if (!selectable.has(member)) problems.add(path, "unknown_member", `order by "${member}": order only by members of the query`);
    else if (dir !== "asc" && dir !== "desc") problems.add(path, "invalid_shape", `order direction must be "asc" or "desc"`);
    else order.push([member, dir]);
  });

  if (problems.items.length > 0) throw new QueryValidationError(problems.items);
  return {
    measures,
    dimensions,
    timeDimensions,
    filters: (q.filters ?? []).map((f) => normalizeTree(f)),
    order,
    limit,
    offset,
    timezone,
    ...(compare ? { compare } : {}),
    ...(calculations ? { calculations } : {}),
    ...(groupLimit ? { groupLimit } : {}),
    ...(q.calculatedFields?.length ? { calculatedFields: q.calculatedFields } : {}),
  };

  function collectWireMembers(f: WireQueryFilter): string[] {
    if ("or" in f) return f.or.flatMap(collectWireMembers);
    if ("and" in f) return f.and.flatMap(collectWireMembers);
    return [(f as { member: string }).member];
  }

  // Runs only when every filter passed checkFilter, so each operator is one of the member's.
  function normalizeTree(wire: WireQueryFilter): QueryFilter {
    if ("or" in wire) return { or: wire.or.map(normalizeTree) };
    if ("and" in wire) return { and: wire.and.map(normalizeTree) };
    const f = wire as MemberFilter;
    const m = resolve(f.member)!;
    const values = normalizeFilter(m, f, [], { add() {} })!;
    return values.length ? { member: f.member, operator: f.operator, values } : { member: f.member, operator: f.operator };
  }
}
