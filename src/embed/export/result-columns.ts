/**
 * The columns of a query result as its annotation describes them, from every group the server
 * sends: dimensions (parts of time among them), time dimensions, measures (calculated fields
 * among them), period comparisons, `compare` and `calculations`. Tables, charts, exports and the
 * chat read titles, types and formats here, so a new group is taught to the embed in one place.
 */
import type {
  CalculationColumnAnnotation,
  CalculationType,
  CompareColumnAnnotation,
  CompareOutput,
  MemberAnnotation,
  PeriodComparisonColumnAnnotation,
  QueryAnnotation,
  TimePart,
} from "../../schema/semantic-query";

/** Which annotation group a column comes from. */
export type ResultColumnRole = "dimension" | "timeDimension" | "measure" | "periodComparison" | "compare" | "calculation";

export interface ResultColumn {
  /** Key in the result rows. */
  key: string;
  /** The full title ("Sales Revenue (change)"). */
  title: string;
  /** The title without the view ("Revenue (change)"): what widgets show. */
  shortTitle: string;
  /** `number`, `string`, `time` or `boolean`. */
  type: string;
  role: ResultColumnRole;
  /** `percent`, `currency` or `number` when the model or the calculation gives one. */
  format?: string;
  /** A difference between two values: shown with its sign (+12 %, −300). */
  signed: boolean;
  /** A time dimension read as a part of time: its integers are labelled (weekday, month, hour). */
  timePart?: TimePart;
  /** The measure column a comparison or calculation reads. */
  measure?: string;
  /** Which of a compared measure's four columns this is. */
  compareOutput?: CompareOutput;
  calculation?: CalculationType;
}

// Every output named, so a new one is a type error here rather than a column shown unsigned.
const COMPARE_SIGNED: Record<CompareOutput, boolean> = { baseline: false, current: false, change: true, relativeChange: true };
const CALCULATIONS: Record<CalculationType, true> = { percentOfTotal: true, runningTotal: true, rank: true };
const PERIOD_SIGNED: Record<string, boolean> = { previous: false, change: true, percent_change: true };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isMemberAnnotation(value: unknown): value is MemberAnnotation {
  return isRecord(value) && typeof value.title === "string" && typeof value.type === "string";
}

export const isCompareOutput = (value: unknown): value is CompareOutput => typeof value === "string" && Object.hasOwn(COMPARE_SIGNED, value);

/** True for the outputs that are differences (`change`, `relativeChange`): shown with their sign. */
export function isSignedCompareOutput(output: CompareOutput): boolean {
  return COMPARE_SIGNED[output];
}
const isCalculation = (value: unknown): value is CalculationType => typeof value === "string" && Object.hasOwn(CALCULATIONS, value);

/**
 * A group's entries. Every group is typed by the schema (`compare`, `periodComparisons` and
 * `calculations` by their output or calculation), but the rows come over the wire unchecked: an
 * entry that is no annotation, or an output this embed does not know, is skipped or left plain.
 */
function entriesOf(group: Record<string, AnnotatedColumn> | undefined): [string, AnnotatedColumn][] {
  if (!isRecord(group)) return [];
  return Object.entries(group).filter((entry): entry is [string, AnnotatedColumn] => isMemberAnnotation(entry[1]));
}

type AnnotatedColumn = MemberAnnotation | CompareColumnAnnotation | PeriodComparisonColumnAnnotation | CalculationColumnAnnotation;

function columnOf(key: string, a: AnnotatedColumn, role: ResultColumnRole): ResultColumn {
  const column: ResultColumn = { key, title: a.title, shortTitle: a.shortTitle || a.title, type: a.type, role, signed: false };
  if (typeof a.format === "string") column.format = a.format;
  if (a.timePart) column.timePart = a.timePart;
  if (typeof a.measure === "string") column.measure = a.measure;
  if (role === "compare" && isCompareOutput(a.output)) {
    column.compareOutput = a.output;
    column.signed = COMPARE_SIGNED[a.output];
    // A relative change is a fraction whatever the measure's own format.
    if (a.output === "relativeChange") column.format = "percent";
  }
  if (role === "periodComparison" && typeof a.output === "string") {
    column.signed = PERIOD_SIGNED[a.output] ?? false;
    if (a.output === "percent_change") column.format = "percent";
  }
  if (role === "calculation" && isCalculation(a.calculation)) {
    column.calculation = a.calculation;
    if (a.calculation === "percentOfTotal") column.format = "percent";
    if (a.calculation === "rank") delete column.format;
  }
  return column;
}

const cache = new WeakMap<QueryAnnotation, ResultColumn[]>();

/** Every column the annotation describes: dimensions, time dimensions, measures, period comparisons, compare, calculations. */
export function resultColumnsOf(annotation: QueryAnnotation | undefined): ResultColumn[] {
  if (!annotation) return [];
  const found = cache.get(annotation);
  if (found) return found;
  const groups: [Record<string, AnnotatedColumn> | undefined, ResultColumnRole][] = [
    [annotation.dimensions, "dimension"],
    [annotation.timeDimensions, "timeDimension"],
    [annotation.measures, "measure"],
    [annotation.periodComparisons, "periodComparison"],
    [annotation.compare, "compare"],
    [annotation.calculations, "calculation"],
  ];
  const columns: ResultColumn[] = [];
  const seen = new Set<string>();
  for (const [group, role] of groups)
    for (const [key, a] of entriesOf(group)) {
      if (seen.has(key)) continue;
      seen.add(key);
      columns.push(columnOf(key, a, role));
    }
  cache.set(annotation, columns);
  return columns;
}

/** The annotated column of `key`, if the annotation has it. */
export function resultColumnOf(key: string, annotation: QueryAnnotation | undefined): ResultColumn | undefined {
  return resultColumnsOf(annotation).find((c) => c.key === key);
}

/** Columns that hold amounts: measures and the comparisons and calculations made of them. */
export function isMeasureLike(column: ResultColumn | undefined): boolean {
  return !!column && column.role !== "dimension" && column.role !== "timeDimension";
}

/**
 * The first amount column of a result for the query's `measures`: the first measure the result
 * has, else (a compared measure has no column of its own) the first column made of measures.
 */
export function firstAmountColumn(measures: readonly string[], annotation: QueryAnnotation | undefined): string | undefined {
  if (!annotation) return measures[0];
  return measures.find((m) => resultColumnOf(m, annotation)) ?? resultColumnsOf(annotation).find(isMeasureLike)?.key ?? measures[0];
}
