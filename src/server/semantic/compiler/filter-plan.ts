import type { AccessDecision, ResolvedPolicyFilter } from "../access-policy";
import type { DataModel, Dimension } from "../data-model";
import { addToWallTime, parseAbsoluteDate, resolveDateRange, zonedWallTimeToInstant, type ResolvedRange } from "../date-range";
import { resolveMember, type ResolvedMember } from "../member-resolution";
import type { FilterOperator, FilterValue, QueryFilter } from "../../../schema/semantic-query";
import { collectFilterMembers, normalizeFilter } from "../validate-query";

/** A filter value typed by its member; time values are exact instants already. */
export type FilterOperand =
  { kind: "instant"; instant: Date } | { kind: "number"; value: number } | { kind: "boolean"; value: boolean } | { kind: "text"; value: string };

/** What a member filter asks of the member's value. */
export type MemberTest =
  /** One of the operands; negated, a missing value passes too. */
  | { test: "in"; negate: boolean; operands: FilterOperand[] }
  | { test: "compare"; comparator: ">" | ">=" | "<" | "<="; operand: FilterOperand }
  /** Between two bounds, both included; negated, outside them (a missing value passes too). */
  | { test: "between"; negate: boolean; low: FilterOperand; high: FilterOperand }
  /** Case-insensitive text match of any value; negated, none may match (a missing value passes). */
  | { test: "match"; negate: boolean; anchor: "contains" | "startsWith" | "endsWith"; values: string[] }
  | { test: "present"; present: boolean }
  /** Instants in [from, to); negated, outside it. */
  | { test: "range"; negate: boolean; range: ResolvedRange };

export type Condition =
  | { kind: "false" }
  | { kind: "or" | "and"; conditions: Condition[] }
  /** `multiplied`: the member is read with its cube's rows repeated by a join (see fan-out). */
  | { kind: "member"; member: ResolvedMember; multiplied: boolean; test: MemberTest };

/** A query filter and where it applies: before aggregation, or after it (filters on measures). */
export interface PlannedFilter {
  condition: Condition;
  having: boolean;
}

/** Row access granted by the policies of one cube or view (open ones leave none). */
export type AccessRule = { kind: "none" } | { kind: "rows"; alternatives: Condition[][] };

/** What filter values mean depends on the zone (dates) and the clock (relative ranges). */
export interface FilterClock {
  zone: string;
  now: Date;
}

const FALSE: Condition = { kind: "false" };

/** `resolve` knows the query's calculated fields besides the model's members. */
export function planQueryFilters(
  model: DataModel,
  filters: QueryFilter[],
  multiplied: ReadonlySet<string>,
  clock: FilterClock,
  resolve: (name: string) => ResolvedMember | undefined = (name) => resolveMember(model, name),
): PlannedFilter[] {
  const plan = (f: QueryFilter): Condition => {
    if ("or" in f) return { kind: "or", conditions: f.or.map(plan) };
    if ("and" in f) return { kind: "and", conditions: f.and.map(plan) };
    const member = resolve(f.member)!;
    return { kind: "member", member, multiplied: multiplied.has(member.cube.name), test: memberTest(member, f.operator, f.values ?? [], clock) };
  };
  return filters.map((f) => ({
    condition: plan(f),
    having: collectFilterMembers([f]).some((n) => resolve(n)!.kind === "measure"),
  }));
}

/** Policies are read from the cube's own rows: their members never count as multiplied. */
export function planAccess(model: DataModel, decision: AccessDecision, qualifyName: (n: string) => string, clock: FilterClock): AccessRule | undefined {
  if (decision.kind === "all") return undefined;
  if (decision.kind === "none") return { kind: "none" };
  const plan = (f: ResolvedPolicyFilter): Condition => {
    if ("never" in f) return FALSE;
    if ("or" in f) return { kind: "or", conditions: f.or.map(plan) };
    if ("and" in f) return { kind: "and", conditions: f.and.map(plan) };
    const member = resolveMember(model, qualifyName(f.member))!;
    let ok = true;
    const values = normalizeFilter(member, f, [], { add: () => (ok = false) });
    // Attribute values of the wrong type hide rows rather than fail open.
    if (!ok || !values) return FALSE;
    return { kind: "member", member, multiplied: false, test: memberTest(member, f.operator, values, clock) };
  };
  return { kind: "rows", alternatives: decision.alternatives.map((alt) => alt.map(plan)) };
}

function memberTest(member: ResolvedMember, operator: FilterOperator, values: FilterValue[], clock: FilterClock): MemberTest {
  const type = member.kind === "measure" ? "number" : (member.def as Dimension).type;
  const operand = (v: FilterValue): FilterOperand => {
    if (member.kind === "dimension" && type === "time") return { kind: "instant", instant: instantOf(String(v), clock.zone) };
    if (type === "number") return { kind: "number", value: v as number };
    if (type === "boolean") return { kind: "boolean", value: v as boolean };
    return { kind: "text", value: String(v) };
  };
  const match = (anchor: "contains" | "startsWith" | "endsWith", negate: boolean): MemberTest => ({
    test: "match",
    negate,
    anchor,
    values: values.map(String),
  });
  const date = (edge: "start" | "after"): FilterOperand => ({ kind: "instant", instant: dateBound(String(values[0]), edge, clock.zone) });
  switch (operator) {
    case "equals":
    case "in":
      return { test: "in", negate: false, operands: values.map(operand) };
    case "notEquals":
    case "notIn":
      return { test: "in", negate: true, operands: values.map(operand) };
    case "contains":
      return match("contains", false);
    case "notContains":
      return match("contains", true);
    case "startsWith":
      return match("startsWith", false);
    case "notStartsWith":
      return match("startsWith", true);
    case "endsWith":
      return match("endsWith", false);
    case "notEndsWith":
      return match("endsWith", true);
    case "gt":
      return { test: "compare", comparator: ">", operand: operand(values[0]!) };
    case "gte":
      return { test: "compare", comparator: ">=", operand: operand(values[0]!) };
    case "lt":
      return { test: "compare", comparator: "<", operand: operand(values[0]!) };
    case "lte":
      return { test: "compare", comparator: "<=", operand: operand(values[0]!) };
    case "between":
    case "notBetween":
      return { test: "between", negate: operator === "notBetween", low: operand(values[0]!), high: operand(values[1]!) };
    case "set":
      return { test: "present", present: true };
    case "notSet":
      return { test: "present", present: false };
    case "inDateRange":
    case "notInDateRange": {
      const range = resolveDateRange(values.length === 1 ? String(values[0]) : values.map(String), clock.zone, clock.now) as ResolvedRange;
      return { test: "range", negate: operator === "notInDateRange", range };
    }
    case "beforeDate":
      return { test: "compare", comparator: "<", operand: date("start") };
    case "beforeOrOnDate":
      return { test: "compare", comparator: "<", operand: date("after") };
    case "afterDate":
      return { test: "compare", comparator: ">=", operand: date("after") };
    case "afterOrOnDate":
      return { test: "compare", comparator: ">=", operand: date("start") };
  }
}

/** A date-only value means its whole day in the query zone. */
function dateBound(text: string, edge: "start" | "after", zone: string): Date {
  const parsed = parseAbsoluteDate(text)!;
  if (parsed.instant) return edge === "start" ? parsed.instant : new Date(parsed.instant.getTime() + 1);
  if (parsed.dateOnly) return zonedWallTimeToInstant(edge === "start" ? parsed.wall! : addToWallTime(parsed.wall!, 1, "day"), zone);
  return zonedWallTimeToInstant(edge === "start" ? parsed.wall! : new Date(parsed.wall!.getTime() + 1), zone);
}

function instantOf(text: string, zone: string): Date {
  const parsed = parseAbsoluteDate(text)!;
  return parsed.instant ?? zonedWallTimeToInstant(parsed.wall!, zone);
}
