import type { FillMissingRows, PeriodComparison } from "../../../schema/dashboard";
import { decideAccess, type ResolvedPolicyFilter } from "../access-policy";
import type { Cube, DataModel, Dimension, Join, Measure, View } from "../data-model";
import { addToWallTime, isUtcLike, resolveDateRange, truncateWallTime, zonedWallTimeToInstant, type ResolvedRange } from "../date-range";
import { QueryValidationError, type QueryProblem } from "../errors";
import { resolveMember, type ResolvedMember } from "../member-resolution";
import { MAX_FILL_BUCKETS, type Granularity, type OrderDirection, type TimePart, type ValidatedQuery } from "../../../schema/semantic-query";
import type { SecurityContext } from "../security-context";
import { collectFilterMembers } from "../validate-query";
import { planAccess, planQueryFilters, type AccessRule, type FilterClock, type PlannedFilter } from "./filter-plan";
import { cubeJoinTree, isMultiplied, unsafeUnderFanOut, viewJoinTree } from "./join-tree";
import { planCalculations, type CalculationPlan } from "./calculations";
import { checkCalculatedFanOut, isCalculatedMember, planCalculatedFields, withFormulaMembers } from "./calculated-fields";
import { compareOrder, planCompare, type ComparePlan } from "./compare-ranges";

export const comparisonUnits = ["day", "week", "month", "quarter", "year"] as const;
export type ComparisonUnit = (typeof comparisonUnits)[number];

/** A time dimension of the query with a granularity: one result column of buckets. */
export interface TimeColumn {
  member: ResolvedMember;
  granularity: Granularity;
  /** `<member>.<granularity>`. */
  column: string;
}

/** A date range a time member is restricted to. */
export interface RangeRestriction {
  member: ResolvedMember;
  range: ResolvedRange;
}

/** A time dimension read as a part of time (day of week, …): one key column of integers. */
export interface TimePartColumn {
  member: ResolvedMember;
  part: TimePart;
  /** `<member>.<part>`. */
  column: string;
}

export interface ScanDimension {
  member: ResolvedMember;
  column: string;
  /** The part of time of a time member, instead of its value. */
  part?: TimePart;
  /** Time dimensions are returned as wall time in the query zone. */
  wallTime: boolean;
  /** Where the member's values lie, when the query restricts it (cheaper zone conversion). */
  span?: ResolvedRange;
}

export interface ScanTimeColumn {
  time: TimeColumn;
  span?: ResolvedRange;
  /** Moves the buckets forward so that an earlier period lines up with the current one. */
  shift?: { amount: number; unit: ComparisonUnit };
}

/** One aggregation over the joined rows: the query itself, or a period comparison's shifted copy. */
export interface ScanPlan {
  dimensions: ScanDimension[];
  timeColumns: ScanTimeColumn[];
  measures: { member: ResolvedMember; column: string }[];
  ranges: RangeRestriction[];
  /** Whether the filters on measures apply (they do to the query's own rows only). */
  having: boolean;
}

/** One row per time bucket (and value of the other key columns) even where the scan has none. */
export interface FillPlan {
  time: TimeColumn;
  /** First and last bucket (wall time) of the query's date range; without one, the result's own. */
  buckets?: { first: Date; last: Date };
  /** Key columns every bucket is repeated for. */
  crossKeys: string[];
  /** Key columns left out of the grid: filled rows carry null for them. */
  excludedKeys: string[];
  /** Measure columns a missing row counts as zero for (counts and sums); others stay null. */
  zeroFilled: string[];
}

/** A measure over a shifted period, joined to the query's rows by their key columns. */
export interface ComparisonPlan {
  measure: ResolvedMember;
  time: TimeColumn;
  amount: number;
  unit: ComparisonUnit;
  /** Column names: previous value, then optionally change and relative change. */
  outputs: string[];
  scan: ScanPlan;
}

export interface CubeJoin {
  parent: Cube;
  cube: Cube;
  join: Join;
}

/** Everything decided about a query before any SQL is written. */
export interface QueryPlan {
  zone: { name: string; utc: boolean };
  measures: ResolvedMember[];
  dimensions: ResolvedMember[];
  timeColumns: TimeColumn[];
  timeParts: TimePartColumn[];
  from: { root: Cube; joins: CubeJoin[] };
  /** Cubes whose rows a to-many join repeats; their counts go by primary key. */
  multiplied: ReadonlySet<string>;
  /** View first, then each joined cube. */
  access: AccessRule[];
  filters: PlannedFilter[];
  scan: ScanPlan;
  /** Dimension and time bucket columns, in result order. */
  keyColumns: string[];
  fill?: FillPlan;
  comparisons: ComparisonPlan[];
  /** Period against period (the query's `compare`): replaces the measure columns by each measure's four outputs. */
  compare?: ComparePlan;
  /** Window calculations and a per-group limit over the aggregated rows. */
  calculations?: CalculationPlan;
  order: [string, OrderDirection][];
  limit: number;
  offset: number;
  /** Result column names in order. */
  columns: string[];
}

/** Options of `planQuery`. */
export interface PlanOptions {
  /** Viewer; access policies of every cube and view in the query are applied for it. */
  securityContext: SecurityContext;
  /** Clock for relative date ranges. */
  now: Date;
  /** One row per time bucket (× other dimension values). */
  fillMissingRows?: FillMissingRows | null;
  /** Measures over shifted periods, added as columns. */
  periodComparisons?: PeriodComparison[] | null;
}

/** Plans a validated query; throws `QueryValidationError` for what only the model and options reveal. */
export function planQuery(model: DataModel, query: ValidatedQuery, options: PlanOptions): QueryPlan {
  const problems: QueryProblem[] = [];
  const clock: FilterClock = { zone: query.timezone, now: options.now };
  const ctx = options.securityContext;

  // Calculated fields stand where members would; the join tree and policies see the members their formulas name.
  const calculated = planCalculatedFields(model, query);
  const resolve = (name: string) => calculated.get(name) ?? resolveMember(model, name)!;
  const measures = query.measures.map(resolve);
  const dimensions = query.dimensions.map(resolve);
  const timeColumns: TimeColumn[] = query.timeDimensions
    .filter((t) => t.granularity)
    .map((t) => ({ member: resolveMember(model, t.dimension)!, granularity: t.granularity!, column: `${t.dimension}.${t.granularity}` }));
  const timeParts: TimePartColumn[] = query.timeDimensions
    .filter((t) => t.part)
    .map((t) => ({ member: resolveMember(model, t.dimension)!, part: t.part!, column: `${t.dimension}.${t.part}` }));
  const filterMembers = collectFilterMembers(query.filters).map(resolve);
  const used: ResolvedMember[] = withFormulaMembers([...measures, ...dimensions, ...timeColumns.map((t) => t.member), ...filterMembers]);
  for (const td of query.timeDimensions) used.push(resolveMember(model, td.dimension)!);
  if (query.compare) used.push(resolveMember(model, query.compare.dimension)!);

  // Access policies: the view's first (its filters may need joins), then each cube joined.
  const view = used.find((m) => m.source.kind === "view")?.source as View | undefined;
  const viewDecision = view ? decideAccess(view.accessPolicy, ctx) : undefined;
  const viewPolicyMembers: ResolvedMember[] = [];
  if (view && viewDecision?.kind === "rows") {
    for (const alt of viewDecision.alternatives) {
      for (const name of collectPolicyMembers(alt)) viewPolicyMembers.push(resolveMember(model, qualify(view.name, name))!);
    }
  }

  const tree = view ? viewJoinTree(view, [...used, ...viewPolicyMembers]) : cubeJoinTree(model, used, problems);
  if (!tree) throw new QueryValidationError(problems);

  // Fan-out: a measure whose rows are repeated by a to-many join is counted by primary key
  // where that is exact (count); sums and averages would be wrong, so they are refused.
  const multiplied = new Set<string>();
  const measureFilterMembers = filterMembers.filter((m) => m.kind === "measure");
  checkCalculatedFanOut(model, tree, [...measures, ...dimensions, ...filterMembers], multiplied, problems);
  for (const m of [...measures, ...measureFilterMembers]) {
    if (isCalculatedMember(m)) continue;
    if (isMultiplied(model, tree, m.cube.name)) {
      multiplied.add(m.cube.name);
      const unsafe = unsafeUnderFanOut(m.cube, m.def as Measure);
      if (unsafe) {
        problems.push({
          path: query.measures.includes(m.name) ? ["measures", query.measures.indexOf(m.name)] : ["filters"],
          code: "fan_out",
          message: `${m.name} would be multiplied by a one-to-many join in this query (${unsafe}); query it without the joined members`,
        });
      }
    }
  }

  const badOption = (path: QueryProblem["path"], message: string) => problems.push({ path, code: "bad_option", message });
  const fill = options.fillMissingRows ?? undefined;
  let fillTime: TimeColumn | undefined;
  let excluded = new Set<string>();
  if (fill) {
    fillTime = timeColumns.find((t) => t.member.name === fill.member || t.column === fill.member);
    if (!fillTime) {
      badOption(["fillMissingRows", "member"], `fillMissingRows.member "${fill.member}" must be a time dimension of the query with a granularity`);
    }
    (fill.excludedDimensions ?? []).forEach((d, i) => {
      if (!query.dimensions.includes(d) && !timeColumns.some((t) => t.column === d || t.member.name === d)) {
        badOption(["fillMissingRows", "excludedDimensions", i], `"${d}" is not a dimension of the query`);
      }
    });
    excluded = new Set((fill.excludedDimensions ?? []).flatMap((d) => [d, ...timeColumns.filter((t) => t.member.name === d).map((t) => t.column)]));
  }
  const comparisons = (options.periodComparisons ?? []).map((pc, i) => checkComparison(pc, ["periodComparisons", i], query, timeColumns, badOption));
  const outputNames = new Set<string>([...query.measures, ...query.dimensions, ...timeColumns.map((t) => t.column)]);
  comparisons.forEach((c, i) =>
    c.outputs.forEach((o, k) => {
      if (outputNames.has(o)) badOption(["periodComparisons", i, "outputs", k], `output name "${o}" is already a column`);
      outputNames.add(o);
    }),
  );
  // Compare and calculations write their own statement: no shifted periods in it, and no fill beside compare.
  if (query.compare && fill) badOption(["fillMissingRows"], "fillMissingRows does not combine with compare (the compared dimension has no buckets)");
  if ((query.compare || query.calculations || query.groupLimit) && options.periodComparisons?.length) {
    badOption(["periodComparisons"], "periodComparisons do not combine with compare, calculations or groupLimit (compare covers period against period)");
  }
  if (problems.length > 0) throw new QueryValidationError(problems);

  const access: AccessRule[] = [];
  const addAccess = (rule: AccessRule | undefined) => rule && access.push(rule);
  if (view) addAccess(planAccess(model, viewDecision!, (n) => qualify(view.name, n), clock));
  for (const cubeName of tree.order) {
    const cube = model.cubes.get(cubeName)!;
    addAccess(planAccess(model, decideAccess(cube.accessPolicy, ctx), (n) => qualify(cube.name, n), clock));
  }

  // Date ranges of time dimensions, kept per member so comparisons can shift theirs.
  const ranges: RangeRestriction[] = query.timeDimensions
    .filter((t) => t.dateRange !== undefined)
    .map((t) => ({ member: resolveMember(model, t.dimension)!, range: resolveDateRange(t.dateRange!, query.timezone, options.now) as ResolvedRange }));
  const rangeOf = (m: ResolvedMember) => ranges.find((r) => r.member.name === m.name)?.range;

  const scanDimensions: ScanDimension[] = dimensions.map((m) => ({
    member: m,
    column: m.name,
    wallTime: (m.def as Dimension).type === "time",
    span: rangeOf(m),
  }));
  for (const t of timeParts) scanDimensions.push({ member: t.member, column: t.column, part: t.part, wallTime: true, span: rangeOf(t.member) });
  const scan: ScanPlan = {
    dimensions: scanDimensions,
    timeColumns: timeColumns.map((t) => ({ time: t, span: rangeOf(t.member) })),
    measures: measures.map((m) => ({ member: m, column: m.name })),
    ranges,
    having: true,
  };
  const keyColumns = [...dimensions.map((m) => m.name), ...timeParts.map((t) => t.column), ...timeColumns.map((t) => t.column)];

  const comparisonPlans = comparisons.map((c): ComparisonPlan => {
    const measure = resolve(c.pc.measure);
    const time = c.time!;
    const shift = { amount: c.pc.offset.amount, unit: c.unit };
    return { measure, time, ...shift, outputs: c.outputs, scan: comparisonScan(scan, measure, time, shift, query.timezone) };
  });
  const comparePlan = query.compare && planCompare(model, query, query.compare, scan, options.now);
  const calculationPlan = planCalculations(model, query, keyColumns, resolve);
  const fillPlan = fillTime && planFill(fillTime, rangeOf(fillTime.member), excluded, keyColumns, measures);
  if (fillPlan?.buckets) {
    const count = approximateBucketCount(fillPlan.buckets.first, fillPlan.buckets.last, fillTime!.granularity);
    if (count > MAX_FILL_BUCKETS) {
      throw new QueryValidationError([
        {
          path: ["fillMissingRows"],
          code: "limit_out_of_range",
          message: `fillMissingRows would generate about ${count.toLocaleString("en-US")} ${fillTime!.granularity} buckets; at most ${MAX_FILL_BUCKETS.toLocaleString("en-US")} are allowed (narrow the date range or use a coarser granularity)`,
        },
      ]);
    }
  }

  return {
    zone: { name: query.timezone, utc: isUtcLike(query.timezone) },
    measures,
    dimensions,
    timeColumns,
    timeParts,
    from: {
      root: model.cubes.get(tree.root)!,
      joins: tree.order
        .filter((c) => c !== tree.root)
        .map((c) => {
          const parent = model.cubes.get(tree.parent.get(c)!)!;
          return { parent, cube: model.cubes.get(c)!, join: parent.joins.get(c)! };
        }),
    },
    multiplied,
    access,
    filters: planQueryFilters(model, query.filters, multiplied, clock, resolve),
    scan,
    keyColumns,
    ...(fillPlan ? { fill: fillPlan } : {}),
    comparisons: comparisonPlans,
    ...(comparePlan ? { compare: comparePlan } : {}),
    ...(calculationPlan ? { calculations: calculationPlan } : {}),
    order: comparePlan && !query.order.length ? compareOrder(query, keyColumns) : defaultOrder(query, measures, dimensions, timeColumns, timeParts),
    limit: query.limit,
    offset: query.offset,
    columns: [
      ...keyColumns,
      ...(comparePlan ? comparePlan.columns.map((c) => c.column) : measures.map((m) => m.name)),
      ...comparisons.flatMap((c) => c.outputs),
      ...(calculationPlan?.calculations ?? []).map((c) => c.name),
    ],
  };
}

/**
 * The scan of a comparison: the measure over the earlier period, i.e. the query's range on the
 * time member moved back by the offset, its buckets moved forward by it so they line up.
 */
function comparisonScan(scan: ScanPlan, measure: ResolvedMember, time: TimeColumn, shift: NonNullable<ScanTimeColumn["shift"]>, zone: string): ScanPlan {
  const sameMember = (m: ResolvedMember) => m.name === time.member.name;
  const own = scan.ranges.find((r) => sameMember(r.member))?.range;
  let shifted: ResolvedRange | undefined;
  if (own) {
    const start = addToWallTime(own.wall.start, -shift.amount, shift.unit);
    const end = addToWallTime(own.wall.end, -shift.amount, shift.unit);
    shifted = { wall: { start, end }, from: zonedWallTimeToInstant(start, zone), to: zonedWallTimeToInstant(end, zone) };
  }
  return {
    dimensions: scan.dimensions,
    timeColumns: scan.timeColumns.map((t) =>
      t.time.column === time.column ? { time: t.time, span: shifted, shift } : sameMember(t.time.member) ? { time: t.time, span: shifted } : t,
    ),
    measures: [{ member: measure, column: "value" }],
    ranges: scan.ranges.flatMap((r) => (!sameMember(r.member) ? [r] : shifted ? [{ member: r.member, range: shifted }] : [])),
    having: false,
  };
}

const APPROXIMATE_BUCKET_MS: Record<Granularity, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30.436875 * 86_400_000,
  quarter: 91.310625 * 86_400_000,
  year: 365.2425 * 86_400_000,
};

/** Buckets between two bucket starts, both included; close enough to hold a limit (DST and month lengths aside). */
function approximateBucketCount(first: Date, last: Date, granularity: Granularity): number {
  return Math.floor((last.getTime() - first.getTime()) / APPROXIMATE_BUCKET_MS[granularity]) + 1;
}

function planFill(time: TimeColumn, range: ResolvedRange | undefined, excluded: Set<string>, keyColumns: string[], measures: ResolvedMember[]): FillPlan {
  // The last bucket is the one holding the range's last instant (its end is exclusive).
  const buckets = range && {
    first: truncateWallTime(range.wall.start, time.granularity),
    last: truncateWallTime(new Date(range.wall.end.getTime() - 1), time.granularity),
  };
  return {
    time,
    ...(buckets ? { buckets } : {}),
    crossKeys: keyColumns.filter((k) => k !== time.column && !excluded.has(k)),
    excludedKeys: keyColumns.filter((k) => k !== time.column && excluded.has(k)),
    zeroFilled: measures.filter((m) => ["count", "count_distinct", "sum"].includes((m.def as Measure).type)).map((m) => m.name),
  };
}

/** Checks one period comparison option, reporting bad parts; names its outputs. */
function checkComparison(
  pc: PeriodComparison,
  path: QueryProblem["path"],
  query: ValidatedQuery,
  timeColumns: TimeColumn[],
  badOption: (path: QueryProblem["path"], message: string) => void,
) {
  const time = timeColumns.find((t) => t.member.name === pc.timeDimension || t.column === pc.timeDimension);
  if (!query.measures.includes(pc.measure)) badOption([...path, "measure"], `"${pc.measure}" is not a measure of the query`);
  if (!time) badOption([...path, "timeDimension"], `"${pc.timeDimension}" is not a time dimension of the query with a granularity`);
  const unit = pc.offset?.unit as ComparisonUnit;
  if (!(comparisonUnits as readonly string[]).includes(unit)) {
    badOption([...path, "offset", "unit"], `offset.unit must be one of ${comparisonUnits.join(", ")}`);
  }
  if (!Number.isInteger(pc.offset?.amount) || pc.offset.amount === 0 || Math.abs(pc.offset.amount) > 1000) {
    badOption([...path, "offset", "amount"], "offset.amount must be a non-zero integer");
  }
  const suffix = Math.abs(pc.offset?.amount ?? 1) === 1 ? unit : `${Math.abs(pc.offset?.amount ?? 1)}_${unit}s`;
  const defaultName = `${pc.measure}_${(pc.offset?.amount ?? 1) > 0 ? "prev" : "next"}_${suffix}`;
  const outputs = pc.outputs && pc.outputs.length ? pc.outputs : [defaultName];
  if (outputs.length > 3) badOption([...path, "outputs"], "at most three outputs: previous value, change, relative change");
  outputs.forEach((o, k) => {
    if (!/^[_a-zA-Z][_a-zA-Z0-9]*(\.[_a-zA-Z][_a-zA-Z0-9]*)?$/.test(o) || o.length > 60) {
      badOption([...path, "outputs", k], `output name "${o}" must look like a member name`);
    }
  });
  return { pc, time, unit, outputs };
}

/** As asked, else time ascending, else first measure descending, else first dimension. */
function defaultOrder(
  query: ValidatedQuery,
  measures: ResolvedMember[],
  dimensions: ResolvedMember[],
  timeColumns: TimeColumn[],
  timeParts: TimePartColumn[],
): [string, OrderDirection][] {
  const order = query.order.map(([member, dir]): [string, OrderDirection] => {
    const t = timeColumns.find((c) => c.member.name === member || c.column === member);
    return [t ? t.column : member, dir];
  });
  if (order.length > 0) return order;
  if (timeColumns.length) return [[timeColumns[0]!.column, "asc"]];
  // Parts of time in calendar order (Monday first, January first).
  if (timeParts.length) return timeParts.map((t): [string, OrderDirection] => [t.column, "asc"]);
  if (measures.length) return [[measures[0]!.name, "desc"]];
  if (dimensions.length) return [[dimensions[0]!.name, "asc"]];
  return [];
}

function qualify(source: string, name: string): string {
  return name.startsWith(`${source}.`) ? name : `${source}.${name}`;
}

function collectPolicyMembers(filters: ResolvedPolicyFilter[]): string[] {
  const out: string[] = [];
  const walk = (f: ResolvedPolicyFilter) => {
    if ("never" in f) return;
    if ("or" in f) f.or.forEach(walk);
    else if ("and" in f) f.and.forEach(walk);
    else out.push(f.member);
  };
  filters.forEach(walk);
  return out;
}
