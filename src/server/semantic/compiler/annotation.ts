import type { Dimension, Measure, MemberFormat } from "../data-model";
import type { ResolvedMember } from "../member-resolution";
import { formatWallTime, type ResolvedRange } from "../date-range";
import type {
  CalculationColumnAnnotation,
  CalculationType,
  CompareColumnAnnotation,
  CompareOutput,
  Granularity,
  MemberAnnotation as SchemaMemberAnnotation,
  PeriodComparisonColumnAnnotation,
  TimePart,
} from "../../../schema/semantic-query";
import { TIME_PART_TITLES } from "../../../schema/time-part-labels";
import { compareLabel } from "../column-labels";
import type { QueryPlan } from "./plan";

export interface MemberAnnotation {
  title: string;
  shortTitle: string;
  /** "number" for measures; the dimension type otherwise. */
  type: "string" | "number" | "boolean" | "time";
  format?: MemberFormat;
  /** Aggregation of a measure (count, sum, …). */
  measureType?: Measure["type"];
  granularity?: Granularity;
  /** A time dimension read as a part of time: its integers are labelled by this (1 = Monday, January, Q1). */
  timePart?: TimePart;
  description?: string;
  meta?: Record<string, unknown>;
  /** The text shown for a raw value in the viewer's locale, added by content translation (translate-result.ts); rows stay raw. */
  valueLabels?: Record<string, string>;
}

export interface PeriodComparisonAnnotation extends MemberAnnotation {
  measure: string;
  output: "previous" | "change" | "percent_change";
}

/** A column of a compared measure: which measure, which output, and the range it reads (wall time, end exclusive). */
export interface CompareAnnotation extends MemberAnnotation {
  measure: string;
  output: CompareOutput;
  /** The range of `baseline` and `current` values; both for `change` and `relativeChange`. */
  ranges: { baseline: { from: string; to: string }; current: { from: string; to: string } };
}

/** A window calculation's column. */
export interface CalculationAnnotation extends MemberAnnotation {
  /** The measure column it reads. */
  measure: string;
  calculation: CalculationType;
  within: string[];
}

/** Per result column: titles, type and format, keyed by the column name. */
export interface QueryAnnotation {
  measures: Record<string, MemberAnnotation>;
  dimensions: Record<string, MemberAnnotation>;
  /** Keyed by `<member>.<granularity>`, the column name of a truncated time dimension. */
  timeDimensions: Record<string, MemberAnnotation>;
  periodComparisons: Record<string, PeriodComparisonAnnotation>;
  /** With `compare`: each measure's baseline, current, change and relativeChange columns (and no plain measure column). */
  compare?: Record<string, CompareAnnotation>;
  calculations?: Record<string, CalculationAnnotation>;
  /** The rollup that answered the query (its rows were read from the rollup's table, not the cube's). */
  rollup?: string;
}

const OUTPUT_KINDS = ["previous", "change", "percent_change"] as const;

export function annotateQuery(plan: QueryPlan): QueryAnnotation {
  const annotation: QueryAnnotation = { measures: {}, dimensions: {}, timeDimensions: {}, periodComparisons: {} };
  if (!plan.compare) for (const m of plan.measures) annotation.measures[m.name] = annotate(m);
  for (const d of plan.dimensions) annotation.dimensions[d.name] = annotate(d);
  for (const t of plan.timeParts) {
    const base = annotate(t.member);
    const label = TIME_PART_TITLES[t.part];
    annotation.dimensions[t.column] = {
      ...base,
      title: `${base.title} (${label})`,
      shortTitle: `${base.shortTitle} (${label})`,
      type: "number",
      timePart: t.part,
    };
    delete annotation.dimensions[t.column]!.format;
  }
  for (const t of plan.timeColumns) annotation.timeDimensions[t.column] = { ...annotate(t.member), granularity: t.granularity };
  for (const c of plan.comparisons) {
    const base = annotate(c.measure);
    const when = `${Math.abs(c.amount)} ${c.unit}${Math.abs(c.amount) === 1 ? "" : "s"} ${c.amount > 0 ? "earlier" : "later"}`;
    c.outputs.forEach((o, k) => {
      const label = k === 0 ? when : k === 1 ? `change vs ${when}` : `% change vs ${when}`;
      annotation.periodComparisons[o] = {
        ...base,
        title: `${base.title} (${label})`,
        shortTitle: `${base.shortTitle} (${label})`,
        format: k === 2 ? "percent" : base.format,
        measure: c.measure.name,
        output: OUTPUT_KINDS[k]!,
      };
    });
  }
  if (plan.compare) annotation.compare = annotateCompare(plan.compare);
  if (plan.calculations?.calculations.length) {
    annotation.calculations = {};
    for (const c of plan.calculations.calculations) {
      const base = annotate(c.measure);
      const label = CALCULATION_TITLES[c.type] + (c.within.length ? ` within ${c.within.join(", ")}` : "");
      const column = c.column === c.measure.name ? "" : ` ${c.column.slice(c.measure.name.length + 1)}`;
      annotation.calculations[c.name] = {
        ...base,
        title: `${base.title}${column} (${label})`,
        shortTitle: `${base.shortTitle}${column} (${label})`,
        measure: c.column,
        calculation: c.type,
        within: c.within,
      };
      // A share and a rank are not amounts of the measure: no aggregation or currency of its own carries over.
      if (c.type === "percentOfTotal") annotation.calculations[c.name]!.format = "percent";
      if (c.type === "rank") delete annotation.calculations[c.name]!.format;
      if (c.type !== "runningTotal") delete annotation.calculations[c.name]!.measureType;
    }
  }
  return annotation;
}

const CALCULATION_TITLES: Record<CalculationType, string> = { percentOfTotal: "% of total", runningTotal: "running total", rank: "rank" };
function annotateCompare(compare: NonNullable<QueryPlan["compare"]>): Record<string, CompareAnnotation> {
  const span = (r: ResolvedRange) => ({ from: formatWallTime(r.wall.start), to: formatWallTime(r.wall.end) });
  const ranges = { baseline: span(compare.baseline), current: span(compare.current) };
  const out: Record<string, CompareAnnotation> = {};
  for (const c of compare.columns) {
    const base = annotate(c.measure);
    // "Revenue (Q1 2024)", "Revenue (Q1 2025)", "Revenue (change)", "Revenue (% change)".
    const when = compareLabel("en", c.output, ranges);
    out[c.column] = {
      ...base,
      title: `${base.title} (${when})`,
      shortTitle: `${base.shortTitle} (${when})`,
      ...(c.output === "relativeChange" ? { format: "percent" as const } : {}),
      measure: c.measure.name,
      output: c.output,
      ranges,
    };
  }
  return out;
}

function annotate(m: ResolvedMember): MemberAnnotation {
  const out: MemberAnnotation = {
    title: m.title,
    shortTitle: m.shortTitle,
    type: m.kind === "measure" ? "number" : (m.def as Dimension).type,
  };
  if (m.def.format) out.format = m.def.format;
  if (m.kind === "measure") out.measureType = (m.def as Measure).type;
  if (m.def.description) out.description = m.def.description;
  if (m.def.meta) out.meta = m.def.meta;
  return out;
}

type Assignable<T extends U, U> = T;
/** A schema type without its passthrough index signature: the keys it names. */
type Named<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
/** The columns the compiler annotates are the ones the query API's schema describes (`QueryResultSchema`). */
export type AnnotationsAreWire = [
  Assignable<MemberAnnotation, Named<SchemaMemberAnnotation>>,
  Assignable<CompareAnnotation, Named<CompareColumnAnnotation>>,
  Assignable<PeriodComparisonAnnotation, Named<PeriodComparisonColumnAnnotation>>,
  Assignable<CalculationAnnotation, Named<CalculationColumnAnnotation>>,
];
