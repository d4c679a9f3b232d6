import type { Dimension, Measure, MemberFormat } from "../data-model";
import type { ResolvedMember } from "../member-resolution";
import type { Granularity, TimePart } from "../../../schema/semantic-query";
import { TIME_PART_TITLES } from "../../../schema/time-part-labels";
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
}

export interface PeriodComparisonAnnotation extends MemberAnnotation {
  measure: string;
  output: "previous" | "change" | "percent_change";
}

/** Per result column: titles, type and format, keyed by the column name. */
export interface QueryAnnotation {
  measures: Record<string, MemberAnnotation>;
  dimensions: Record<string, MemberAnnotation>;
  /** Keyed by `<member>.<granularity>`, the column name of a truncated time dimension. */
  timeDimensions: Record<string, MemberAnnotation>;
  periodComparisons: Record<string, PeriodComparisonAnnotation>;
}

const OUTPUT_KINDS = ["previous", "change", "percent_change"] as const;

export function annotateQuery(plan: QueryPlan): QueryAnnotation {
  const annotation: QueryAnnotation = { measures: {}, dimensions: {}, timeDimensions: {}, periodComparisons: {} };
  for (const m of plan.measures) annotation.measures[m.name] = annotate(m);
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
  return annotation;
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
