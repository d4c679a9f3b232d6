import type { DataModel, Measure } from "../data-model";
import { resolveDateRange, type ResolvedRange } from "../date-range";
import { resolveMember, type ResolvedMember } from "../member-resolution";
import { compareOutputs, type CompareOutput, type CompareRanges, type OrderDirection, type ValidatedQuery } from "../../../schema/semantic-query";
import type { ScanPlan } from "./plan";

/** One result column of a compared measure. */
export interface CompareColumn {
  measure: ResolvedMember;
  output: CompareOutput;
  /** `<measure>.<output>`. */
  column: string;
}

/**
 * Period against period: the query's scan run twice, once per date range of the compared time
 * dimension, both under the same WHERE (row-level security and filters), their rows lined up
 * by the other key columns.
 */
export interface ComparePlan {
  dimension: ResolvedMember;
  baseline: ResolvedRange;
  current: ResolvedRange;
  scans: { baseline: ScanPlan; current: ScanPlan };
  /** Measures a period without rows counts as zero (counts and sums); others stay null. */
  zeroFilled: string[];
  columns: CompareColumn[];
}

/** Plans a validated `compare`: resolves both ranges (relative ones in the query zone) and builds a scan for each. */
export function planCompare(model: DataModel, query: ValidatedQuery, compare: CompareRanges, scan: ScanPlan, now: Date): ComparePlan {
  const dimension = resolveMember(model, compare.dimension)!;
  const baseline = resolveDateRange(compare.baseline, query.timezone, now) as ResolvedRange;
  const current = resolveDateRange(compare.current, query.timezone, now) as ResolvedRange;
  const measures = scan.measures.map((m) => m.member);
  return {
    dimension,
    baseline,
    current,
    scans: { baseline: periodScan(scan, dimension, baseline), current: periodScan(scan, dimension, current) },
    zeroFilled: measures.filter((m) => ["count", "count_distinct", "sum"].includes((m.def as Measure).type)).map((m) => m.name),
    columns: measures.flatMap((measure) => compareOutputs.map((output) => ({ measure, output, column: `${measure.name}.${output}` }))),
  };
}

/** The query's scan restricted to one period of the compared dimension (parts of time of it read in that span). */
function periodScan(scan: ScanPlan, dimension: ResolvedMember, range: ResolvedRange): ScanPlan {
  const same = (m: ResolvedMember) => m.name === dimension.name;
  return {
    dimensions: scan.dimensions.map((d) => (same(d.member) ? { ...d, span: range } : d)),
    timeColumns: scan.timeColumns,
    measures: scan.measures,
    ranges: [...scan.ranges, { member: dimension, range }],
    having: false,
  };
}

/** As asked; else parts of time in calendar order; else the first measure's current value, largest first. */
export function compareOrder(query: ValidatedQuery, keyColumns: string[]): [string, OrderDirection][] {
  if (query.order.length) return query.order;
  const parts = query.timeDimensions.filter((t) => t.part).map((t): [string, OrderDirection] => [`${t.dimension}.${t.part}`, "asc"]);
  if (parts.length) return parts;
  if (query.measures.length) return [[`${query.measures[0]}.current`, "desc"]];
  return keyColumns.slice(0, 1).map((k): [string, OrderDirection] => [k, "asc"]);
}
